package dev.continuum.placement.core.planner;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A request the planner refuses before deciding anything: each error names the request field (as a JSON path,
 * e.g. {@code data[0].endpointId}) and why, so a REST adapter can answer 4xx problem JSON with a pointer per error.
 * It is an {@link IllegalArgumentException}, so code that only cares that input was bad may catch that.
 */
public final class InvalidRequestException extends IllegalArgumentException {
    /** One refused field. */
    public record FieldError(String field, String reason) {
        @Override
        public String toString() {
            return field + ": " + reason;
        }
    }

    private final List<FieldError> errors;

    public InvalidRequestException(List<FieldError> errors) {
        super(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("an invalid request needs at least one error");
        }
        this.errors = List.copyOf(errors);
    }

    public InvalidRequestException(String field, String reason) {
        this(List.of(new FieldError(field, reason)));
    }

    public List<FieldError> errors() {
        return errors;
    }

    /** The first refused field (most requests have one). */
    public String field() {
        return errors.getFirst().field();
    }

    public String reason() {
        return errors.getFirst().reason();
    }
}
