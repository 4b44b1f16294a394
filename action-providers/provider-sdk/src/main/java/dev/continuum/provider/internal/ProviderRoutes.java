package dev.continuum.provider.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.IntegerParameter;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.ProviderServerOptions;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The HTTP face of one provider: translates requests to {@link ActionEngine} calls on worker
 * threads and every failure to a problem document. No stack trace ever reaches a caller.
 */
public final class ProviderRoutes {

    public static final String CALLBACK_HEADER = "X-Continuum-Callback";
    private static final System.Logger LOG = System.getLogger(ProviderRoutes.class.getName());
    private static final ObjectMapper JSON = ProviderJson.mapper();
    private static final int DEFAULT_LOG_LIMIT = 100;
    private static final int MAX_LOG_LIMIT = 1000;

    private final ActionEngine engine;
    private final Vertx vertx;
    private final ProviderServerOptions options;
    private final RequestSpans spans;

    public ProviderRoutes(ActionEngine engine, ProviderServerOptions options) {
        this.engine = engine;
        this.vertx = options.vertx();
        this.options = options;
        this.spans = new RequestSpans(options.telemetry());
    }

    public void mount(Router router, String basePath) {
        String base = normalize(basePath);
        BodyHandler body = BodyHandler.create(false).setBodyLimit(options.maxBodyBytes());

        router.get(base + "/").handler(this::introspect).failureHandler(this::failure);
        if (!base.isEmpty()) {
            router.get(base).handler(this::introspect).failureHandler(this::failure);
        }
        for (String run : List.of(base + "/run", base + "/actions")) {
            router.post(run).handler(body).handler(this::run).failureHandler(this::failure);
        }
        // Legacy Globus paths first, so "/actions/{id}" is never read as action "actions".
        router.get(base + "/actions/:actionId").handler(this::status).failureHandler(this::failure);
        for (String prefix : List.of(base + "/actions/:actionId", base + "/:actionId")) {
            router.get(prefix + "/status").handler(this::status).failureHandler(this::failure);
            router.post(prefix + "/cancel").handler(this::cancel).failureHandler(this::failure);
            router.post(prefix + "/release").handler(this::release).failureHandler(this::failure);
            router.get(prefix + "/log").handler(this::log).failureHandler(this::failure);
        }
        if (!base.isEmpty()) {
            // Anything else under this provider is a problem document too, not the router's HTML page.
            router.route(base + "/*").handler(rc -> sendProblem(rc, Problems.notFound(rc.request().path()).problem()));
        }
    }

    private void introspect(RoutingContext rc) {
        respond(rc, "/", () -> {
            // A description visible to "public" is served without asking who calls (as in Globus).
            if (!engine.description().visibleTo().contains("public")) {
                caller(rc);
            }
            return new Answer(200, engine.description());
        });
    }

    private void run(RoutingContext rc) {
        respond(rc, "/run", () -> {
            Caller caller = caller(rc);
            String callback = callbackUrl(rc);
            ActionRequest request = RequestParser.parse(readJson(rc));
            ActionEngine.RunOutcome outcome = engine.runValidated(caller, request, callback, null);
            return new Answer(outcome.created() ? 202 : 200, outcome.status());
        });
    }

    private void status(RoutingContext rc) {
        respond(rc, "/{action_id}/status", () -> new Answer(200, engine.status(caller(rc), rc.pathParam("actionId"))));
    }

    private void cancel(RoutingContext rc) {
        respond(rc, "/{action_id}/cancel", () -> new Answer(200, engine.cancel(caller(rc), rc.pathParam("actionId"))));
    }

    private void release(RoutingContext rc) {
        respond(rc, "/{action_id}/release", () -> new Answer(200, engine.release(caller(rc), rc.pathParam("actionId"))));
    }

    private void log(RoutingContext rc) {
        respond(rc, "/{action_id}/log", () -> {
            Caller caller = caller(rc);
            int limit = intParam(rc, "limit", DEFAULT_LOG_LIMIT, 1, MAX_LOG_LIMIT);
            int offset = intParam(rc, "marker", 0, 0, Integer.MAX_VALUE);
            ActionEngine.LogPage page = engine.log(caller, rc.pathParam("actionId"), limit, offset);
            ObjectNode doc = JSON.createObjectNode();
            doc.set("entries", JSON.valueToTree(page.entries()));
            doc.put("has_next_page", page.nextMarker() != null);
            if (page.nextMarker() != null) {
                doc.put("marker", page.nextMarker());
            }
            return new Answer(200, doc);
        });
    }

    private record Answer(int status, Object body) {}

    /** Runs {@code work} on a worker inside the request's span (so a provider sees it as the current span). */
    private void respond(RoutingContext rc, String route, Callable<Answer> work) {
        Span span = spans.start(rc, route);
        vertx.executeBlocking(() -> {
            try (Scope ignored = span.makeCurrent()) {
                return work.call();
            }
        }, false).onComplete(ar -> {
            if (ar.succeeded()) {
                RequestSpans.end(span, ar.result().status());
                send(rc, ar.result().status(), "application/json", ar.result().body());
            } else {
                Problem problem = toProblem(ar.cause());
                RequestSpans.end(span, problem.status());
                sendProblem(rc, problem);
            }
        });
    }

    private Problem toProblem(Throwable cause) {
        if (cause instanceof ProblemException p) {
            return p.problem();
        }
        if (cause instanceof CallerRejectedException r) {
            return Problems.rejected(r);
        }
        LOG.log(System.Logger.Level.ERROR, "unexpected failure serving an action provider request", cause);
        return Problems.ofStatus(500, "The provider failed unexpectedly; the error was logged.");
    }

    private void failure(RoutingContext rc) {
        Throwable cause = rc.failure();
        if (cause != null && (cause instanceof ProblemException || cause instanceof CallerRejectedException)) {
            sendProblem(rc, toProblem(cause));
            return;
        }
        int status = rc.statusCode() >= 400 ? rc.statusCode() : 500;
        if (status >= 500) {
            LOG.log(System.Logger.Level.ERROR, "failure serving " + rc.request().path(), cause);
        }
        String detail = status == 413 ? "The request body exceeds " + options.maxBodyBytes() + " bytes."
                : status >= 500 ? "The provider failed unexpectedly; the error was logged." : null;
        sendProblem(rc, Problems.ofStatus(status, detail));
    }

    private Caller caller(RoutingContext rc) {
        return options.callerResolver().resolve(rc);
    }

    private static String callbackUrl(RoutingContext rc) {
        String value = rc.request().getHeader(CALLBACK_HEADER);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(value.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri.toString();
            }
        } catch (URISyntaxException ignored) {
            // reported below
        }
        throw Problems.invalidRequest("The " + CALLBACK_HEADER + " header must be an absolute http or https URL.", List.of());
    }

    private static JsonNode readJson(RoutingContext rc) {
        Buffer body = rc.body() == null ? null : rc.body().buffer();
        if (body == null || body.length() == 0) {
            throw Problems.invalidRequest("", "The request has no body; send a JSON object with request_id and body.");
        }
        try {
            return JSON.readTree(body.getBytes());
        } catch (IOException e) {
            String where = e instanceof JsonProcessingException j && j.getLocation() != null
                    ? " at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr() : "";
            throw Problems.invalidRequest("", "The request body is not valid JSON" + where + ".");
        }
    }

    private static int intParam(RoutingContext rc, String name, int fallback, int min, int max) {
        String text = rc.queryParams().get(name);
        try {
            return IntegerParameter.parse(name, text == null || text.isBlank() ? null : text.strip(), fallback, min, max);
        } catch (IntegerParameter.Invalid e) {
            throw Problems.invalidRequest("The query parameter " + e.getMessage() + ".", List.of());
        }
    }

    private static void sendProblem(RoutingContext rc, Problem problem) {
        send(rc, problem.status(), "application/problem+json", problem);
    }

    private static void send(RoutingContext rc, int status, String contentType, Object body) {
        if (rc.response().ended()) {
            return;
        }
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot encode an answer", e);
            status = 500;
            contentType = "application/problem+json";
            bytes = ("{\"type\":\"" + Problems.BASE + "internal\",\"title\":\"Internal error\",\"status\":500}").getBytes();
        }
        rc.response().setStatusCode(status).putHeader("Content-Type", contentType).end(Buffer.buffer(bytes));
    }

    private static String normalize(String basePath) {
        String base = basePath == null ? "" : basePath.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        if (!base.isEmpty() && !base.startsWith("/")) {
            base = "/" + base;
        }
        return base;
    }

}
