package dev.continuum.provider.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A request body Jackson could not read, as RFC 9457 problem JSON naming the offending field by its JSON pointer
 * ({@code data[0].sizeBytes} becomes {@code /data/0/sizeBytes}). The engine, the planner service and the SDK answer
 * an unreadable body with this one problem; each service's framework adapter (a JAX-RS exception mapper) only
 * hands the exception over.
 */
public final class UnreadableBody {

    private UnreadableBody() {}

    /** 400 {@code invalid}: the detail and the one field error name the pointer and {@link #reason}. */
    public static Problem problem(JsonProcessingException e) {
        return problem(e, reason(e));
    }

    /** As {@link #problem(JsonProcessingException)} with the service's own {@code reason}. */
    public static Problem problem(JsonProcessingException e, String reason) {
        String pointer = pointer(e);
        String detail = pointer.isEmpty() ? reason : pointer + " " + reason;
        return Problem.of(400, "invalid", "Invalid request body", detail, List.of(new Problem.FieldError(pointer, reason)));
    }

    /** The RFC 6901 pointer of the field Jackson stopped at; empty when it names none (the body as a whole). */
    public static String pointer(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException m)) {
            return "";
        }
        return m.getPath().stream()
                .map(ref -> "/" + (ref.getFieldName() != null ? ref.getFieldName() : String.valueOf(ref.getIndex())))
                .collect(Collectors.joining());
    }

    /** Why the body was refused, said of the field at {@link #pointer}. */
    public static String reason(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            return "'" + u.getPropertyName() + "' is not a known field.";
        }
        if (e.getCause() instanceof StreamConstraintsException limit) {
            return "is too large or too deeply nested: " + limit.getOriginalMessage();
        }
        if (e.getCause() instanceof JsonParseException parse) {
            return "is not valid JSON: " + parse.getOriginalMessage();
        }
        if (e instanceof JsonMappingException) {
            return "has the wrong type or shape.";
        }
        return "The body is not valid JSON: " + e.getOriginalMessage();
    }
}
