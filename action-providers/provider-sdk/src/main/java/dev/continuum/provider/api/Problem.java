package dev.continuum.provider.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An RFC 9457 problem document: every error a provider returns has this shape, and
 * {@code errors} names each offending field by its JSON pointer into the request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Problem(
        @JsonProperty("type") String type,
        @JsonProperty("title") String title,
        @JsonProperty("status") int status,
        @JsonProperty("detail") String detail,
        @JsonProperty("errors") List<FieldError> errors) {

    /** Where every problem {@code type} of Continuum starts: the rest is a stable slug such as {@code invalid}. */
    public static final String TYPE_BASE = "https://continuum.dev/problems/";

    public Problem {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /** A problem whose {@code type} is {@link #TYPE_BASE} followed by {@code slug}. */
    public static Problem of(int status, String slug, String title, String detail, List<FieldError> errors) {
        return new Problem(TYPE_BASE + slug, title, status, detail, errors);
    }

    /** One invalid field: {@code pointer} is an RFC 6901 JSON pointer into the request document. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FieldError(@JsonProperty("pointer") String pointer, @JsonProperty("message") String message) {}
}
