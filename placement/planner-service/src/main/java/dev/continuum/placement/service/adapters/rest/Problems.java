package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.service.app.DuplicateRequestException;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.api.Problem.FieldError;
import dev.continuum.provider.api.UnreadableBody;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Refusals as RFC 9457 problem JSON in the engine's shape: {@code errors[]} with a JSON pointer per bad field
 * ({@code data[0].sizeBytes} becomes {@code /data/0/sizeBytes}). No stack trace reaches a caller.
 */
public class Problems {

    private static final Logger LOG = Logger.getLogger(Problems.class);

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e) {
        List<FieldError> issues = e.errors().stream().map(f -> new FieldError(pointer(f.field()), f.reason())).toList();
        return problem(400, "invalid", "Invalid placement request", e.getMessage(), issues);
    }

    @ServerExceptionMapper
    public Response duplicate(DuplicateRequestException e) {
        return problem(409, "conflict", "Request id in use", e.getMessage(), List.of(new FieldError("/id", e.getMessage())));
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return problem(404, "not-found", "Not found", e.getMessage(), List.of());
    }

    /** Named one by one, so that these win over the Jackson extension's own mappers for the subtypes. */
    @ServerExceptionMapper(value = {UnrecognizedPropertyException.class, MismatchedInputException.class,
            JsonProcessingException.class}, priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response unreadable(JsonProcessingException e) {
        return respond(UnreadableBody.problem(e));
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

    private static Response problem(int status, String type, String title, String detail, List<FieldError> errors) {
        return respond(Problem.of(status, type, title, detail, errors));
    }

    private static Response respond(Problem problem) {
        return Response.status(problem.status()).type("application/problem+json").entity(problem).build();
    }
}
