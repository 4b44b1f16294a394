package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.api.UnreadableBody;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.List;

/** Every refusal leaves as RFC 9457 problem JSON; no stack trace ever reaches a caller. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    private static final String PROBLEM_JSON = "application/problem+json";

    @ServerExceptionMapper
    public Response engineError(EngineError e) {
        int status = switch (e.kind()) {
            case INVALID -> 400;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_LARGE -> 413;
        };
        return problem(status, e.kind().name().toLowerCase().replace('_', '-'), e.title(), e.getMessage(), e.issues());
    }

    /** quarkus-oidc cannot reach the identity provider to check a token: the caller should retry, not sign in again. */
    @ServerExceptionMapper
    public Response identityProviderDown(io.quarkus.oidc.OIDCException e) {
        LOG.warn("cannot check a bearer token: " + e.getMessage());
        return Response.fromResponse(problem(503, "identity-provider-unavailable", "Identity provider unavailable",
                "The engine cannot reach the identity provider to check your token. Try again shortly.", List.of()))
                .header("Retry-After", "5").build();
    }

    /** No usable token to act on the person's behalf: they must sign in again (run start or resume). */
    @ServerExceptionMapper
    public Response signInRequired(dev.continuum.engine.app.SignInRequired e) {
        return unauthorized("Sign-in required", e.getMessage());
    }

    @ServerExceptionMapper
    public Response delegationUnavailable(dev.continuum.engine.app.DelegationUnavailable e) {
        LOG.warn(e.getMessage());
        return Response.fromResponse(problem(503, "identity-provider-unavailable", "Identity provider unavailable",
                e.getMessage(), List.of())).header("Retry-After", "5").build();
    }

    @ServerExceptionMapper
    public Response accessDenied(dev.continuum.engine.app.AccessDenied e) {
        return problem(403, "forbidden", "Not allowed", e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response flowCallRefused(dev.continuum.engine.app.FlowCallRefused e) {
        return problem(409, e.error().equals(dev.continuum.engine.app.FlowCallRefused.CYCLE) ? "flow-cycle-refused"
                : "flow-depth-exceeded", e.error(), e.getMessage(), List.of());
    }

    /** Named one by one, so that these win over the Jackson extension's own mappers for the subtypes. */
    @ServerExceptionMapper(value = {UnrecognizedPropertyException.class, MismatchedInputException.class,
            JsonProcessingException.class}, priority = jakarta.ws.rs.Priorities.USER - 100)
    public Response unreadableJson(JsonProcessingException e) {
        Problem problem = e instanceof dev.continuum.engine.config.StrictJson.UnstorableText
                ? UnreadableBody.problem(e, e.getOriginalMessage() + ".") : UnreadableBody.problem(e);
        return Response.status(problem.status()).type(PROBLEM_JSON).entity(problem).build();
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (e.getCause() instanceof JsonProcessingException json) {
            return unreadableJson(json);
        }
        return problem(status, "http-" + status, Response.Status.fromStatusCode(status) == null ? "Error"
                : Response.Status.fromStatusCode(status).getReasonPhrase(), e.getMessage(), List.of());
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("unexpected failure while serving a request", e);
        return problem(500, "internal", "Internal error",
                "The engine failed unexpectedly; the request was not applied. The server log has details.", List.of());
    }

    /** 401 with the RFC 6750 challenge: no or unusable bearer token. */
    public static Response unauthorized(String title, String detail) {
        return Response.fromResponse(problem(401, "unauthorized", title, detail, List.of()))
                .header("WWW-Authenticate", "Bearer").build();
    }

    /** The problem body as JSON text, for refusals written outside JAX-RS (Vert.x failure handlers). */
    public static String problemJson(int status, String type, String title, String detail) {
        return problemJson(status, type, title, detail, List.of());
    }

    /** As {@link #problemJson(int, String, String, String)}, naming the offending part of the request. */
    public static String problemJson(int status, String type, String title, String detail, String pointer, String reason) {
        return problemJson(status, type, title, detail, List.of(new FieldIssue(pointer, reason)));
    }

    private static String problemJson(int status, String type, String title, String detail, List<FieldIssue> errors) {
        try {
            return JSON.writeValueAsString(Problem.of(status, type, title, detail, fieldErrors(errors)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private static Response problem(int status, String type, String title, String detail, List<FieldIssue> errors) {
        return Response.status(status).type(PROBLEM_JSON)
                .entity(Problem.of(status, type, title, detail, fieldErrors(errors))).build();
    }

    private static List<Problem.FieldError> fieldErrors(List<FieldIssue> issues) {
        return issues.stream().map(i -> new Problem.FieldError(i.pointer(), i.message())).toList();
    }
}
