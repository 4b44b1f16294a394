package dev.continuum.provider.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * The document sent to {@code POST /run}. {@code request_id} makes the call idempotent: the
 * same caller repeating it gets the same action back, never a second one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ActionRequest(
        @JsonProperty("request_id") String requestId,
        @JsonProperty("body") JsonNode body,
        @JsonProperty("label") String label,
        @JsonProperty("tags") List<String> tags,
        @JsonProperty("manage_by") List<String> manageBy,
        @JsonProperty("monitor_by") List<String> monitorBy,
        @JsonProperty("release_after") String releaseAfter,
        @JsonProperty("deadline") Instant deadline) {

    public ActionRequest {
        tags = tags == null ? null : List.copyOf(tags);
        manageBy = manageBy == null ? null : List.copyOf(manageBy);
        monitorBy = monitorBy == null ? null : List.copyOf(monitorBy);
    }

    /** The common case: only an id and a body. */
    public static ActionRequest of(String requestId, JsonNode body) {
        return new ActionRequest(requestId, body, null, null, null, null, null, null);
    }

    /**
     * The run that asked, when the request id names one: the engine's request ids are {@code <run id>/<state>/...}
     * (a provider files what it decides for the action under the run too); null otherwise.
     */
    public String callingRunId() {
        int slash = requestId == null ? -1 : requestId.indexOf('/');
        return slash > 0 ? requestId.substring(0, slash) : null;
    }

    public ActionRequest withLabel(String newLabel) {
        return new ActionRequest(requestId, body, newLabel, tags, manageBy, monitorBy, releaseAfter, deadline);
    }
}
