package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.service.app.DuplicateRequestException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Refusals as RFC 9457 problem JSON in the engine's shape: {@code errors[]} with a JSON pointer per bad field
 * ({@code data[0].sizeBytes} becomes {@code /data/0/sizeBytes}). No stack trace reaches a caller.
 */
public class Problems {

    private static final Logger LOG = Logger.getLogger(Problems.class);

    public record FieldIssue(String pointer, String message) {}

    public record Problem(String type, String title, int status, String detail, List<FieldIssue> errors) {}

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e) {
        List<FieldIssue> issues = e.errors().stream().map(f -> new FieldIssue(pointer(f.field()), f.reason())).toList();
        return problem(400, "invalid", "Invalid placement request", e.getMessage(), issues);
    }

    @ServerExceptionMapper
    public Response duplicate(DuplicateRequestException e) {
        return problem(409, "conflict", "Request id in use", e.getMessage(), List.of(new FieldIssue("/id", e.getMessage())));
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return problem(404, "not-found", "Not found", e.getMessage(), List.of());
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response unknownField(UnrecognizedPropertyException e) {
        return unreadable(e);
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response wrongShape(com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
        return unreadable(e);
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response unreadable(JsonProcessingException e) {
        String pointer = e instanceof JsonMappingException m ? m.getPath().stream()
                .map(r -> "/" + (r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex())))
                .collect(Collectors.joining()) : "";
        String reason = e instanceof UnrecognizedPropertyException u ? "'" + u.getPropertyName() + "' is not a known field"
                : e instanceof JsonMappingException ? "has the wrong type or shape" : "is not valid JSON";
        return problem(400, "invalid", "Invalid request body", (pointer.isEmpty() ? "the body" : pointer) + " " + reason,
                List.of(new FieldIssue(pointer, reason)));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return unreadable(json);
        }
        int status = e.getResponse().getStatus();
        return problem(status, "http-" + status, "Error", e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("unexpected failure while serving a placement request", e);
        return problem(500, "internal", "Internal error", "The planner failed unexpectedly; the server log has details.", List.of());
    }

    /** {@code data[0].sizeBytes} → {@code /data/0/sizeBytes}. */
    static String pointer(String field) {
        return field.isEmpty() ? "" : "/" + field.replace("[", ".").replace("]", "").replace('.', '/');
    }

    private static Response problem(int status, String type, String title, String detail, List<FieldIssue> errors) {
        return Response.status(status).type("application/problem+json")
                .entity(new Problem("https://continuum.dev/problems/" + type, title, status, detail, errors)).build();
    }
}
