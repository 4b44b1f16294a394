package dev.continuum.provider.builtin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.InvalidInputException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * {@code notify}: POSTs {@code payload} as JSON to {@code url} (http or https) and succeeds with
 * the response code, or fails with the reason. Connection errors, timeouts, 408, 429 and 5xx are
 * retried with exponential backoff; other answers are final. Header values are sent but never
 * logged nor echoed in the action's status, since they often carry secrets.
 */
public final class NotifyProvider implements ActionProvider {

    static final String SCOPE = "urn:continuum:providers:notify";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonNode SCHEMA = Schemas.parse("""
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "type": "object",
             "properties": {
               "url": {"type": "string", "pattern": "^[hH][tT][tT][pP][sS]?://", "description": "http or https URL to POST to"},
               "payload": {"description": "Any JSON value, sent as the request body; {} when absent"},
               "headers": {"type": "object", "additionalProperties": {"type": "string"},
                           "description": "Extra request headers; values are never logged"},
               "timeout_seconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 300},
               "retries": {"type": "integer", "minimum": 0, "maximum": 10}
             },
             "required": ["url"],
             "additionalProperties": false}""");
    private static final double DEFAULT_TIMEOUT_SECONDS = 10;
    private static final int DEFAULT_RETRIES = 3;

    private final Vertx vertx;
    private final WebClient web;
    private final long firstBackoffMillis;

    public NotifyProvider(Vertx vertx) {
        this(vertx, 500);
    }

    /** @param firstBackoffMillis delay before the first retry; doubles after each attempt */
    public NotifyProvider(Vertx vertx, long firstBackoffMillis) {
        this.vertx = vertx;
        this.web = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false)
                .setConnectTimeout(5000).setUserAgent("continuum-notify"));
        this.firstBackoffMillis = firstBackoffMillis;
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Notify")
                .subtitle("Sends a webhook")
                .description("POSTs body.payload as JSON to body.url; SUCCEEDS with the response status code.")
                .keywords(List.of("webhook", "notify", "http"))
                .scope(SCOPE)
                .synchronous(false)
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        Delivery delivery = deliveryOf(request, ctx);
        ArrayNode headerNames = NODES.arrayNode();
        delivery.headers.keySet().forEach(headerNames::add);
        ctx.log("WebhookStarted", "POST " + redacted(delivery.target), NODES.objectNode().set("header_names", headerNames));
        delivery.attempt(1);
        return ctx.active("Sending", NODES.objectNode().put("url", redacted(delivery.target)));
    }

    /**
     * An unfinished delivery whose sender stopped (a durable store, ADR 0032: the engine that sent it was killed, or
     * another engine adopted it): sends again, with the same {@code X-Continuum-Action-Id}, since whether the first
     * POST arrived is unknown. At least once for an interrupted send; a repeated request_id never sends again.
     */
    @Override
    public void resume(ActionContext ctx) {
        Delivery delivery = deliveryOf(ctx.request(), ctx);
        ctx.log("WebhookResumed", "POST " + redacted(delivery.target) + " again: its sender stopped before an answer", null);
        delivery.attempt(1);
    }

    private Delivery deliveryOf(ActionRequest request, ActionContext ctx) {
        JsonNode body = request.body();
        return new Delivery(ctx, checkedUrl(body.get("url").asText()),
                body.has("payload") ? body.get("payload") : NODES.objectNode(),
                headersOf(body.path("headers")),
                (long) (body.path("timeout_seconds").asDouble(DEFAULT_TIMEOUT_SECONDS) * 1000),
                body.path("retries").asInt(DEFAULT_RETRIES));
    }

    private final class Delivery {
        private final ActionContext ctx;
        private final URI target;
        private final Buffer payload;
        private final Map<String, String> headers;
        private final long timeoutMillis;
        private final int retries;

        Delivery(ActionContext ctx, URI target, JsonNode payload, Map<String, String> headers, long timeoutMillis, int retries) {
            this.ctx = ctx;
            this.target = target;
            this.headers = headers;
            this.timeoutMillis = Math.max(1, timeoutMillis);
            this.retries = retries;
            try {
                this.payload = Buffer.buffer(ProviderJson.mapper().writeValueAsBytes(payload));
            } catch (JsonProcessingException e) {
                throw new InvalidInputException("/body/payload", "payload cannot be encoded as JSON");
            }
        }

        void attempt(int attempt) {
            if (ctx.finished()) {
                return; // cancelled meanwhile
            }
            HttpRequest<Buffer> request = web.postAbs(target.toString()).timeout(timeoutMillis);
            headers.forEach(request::putHeader);
            request.putHeader("Content-Type", "application/json")
                    .putHeader("X-Continuum-Action-Id", ctx.actionId())
                    .sendBuffer(payload)
                    .onComplete(ar -> {
                        int code = ar.succeeded() ? ar.result().statusCode() : 0;
                        if (code >= 200 && code < 300) {
                            finish(() -> ctx.complete(NODES.objectNode().put("status_code", code).put("attempts", attempt)));
                            return;
                        }
                        boolean worthRetrying = code == 0 || code == 408 || code == 429 || code >= 500;
                        String reason = ar.succeeded() ? "HTTP " + code : describe(ar.cause());
                        if (worthRetrying && attempt <= retries) {
                            ctx.log("WebhookRetry", "attempt " + attempt + " failed: " + reason, null);
                            vertx.setTimer(firstBackoffMillis << Math.min(16, attempt - 1), t -> attempt(attempt + 1));
                            return;
                        }
                        ObjectNode details = NODES.objectNode().put("reason", reason).put("attempts", attempt);
                        if (code != 0) {
                            details.put("status_code", code);
                        }
                        finish(() -> ctx.fail("Webhook failed", details));
                    });
        }

        /** Store updates may block (a persistent store), so they leave the event loop. */
        private void finish(Runnable change) {
            vertx.executeBlocking(() -> {
                change.run();
                return null;
            }, false);
        }
    }

    private static URI checkedUrl(String text) {
        try {
            URI uri = new URI(text.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException ignored) {
            // reported below
        }
        throw new InvalidInputException("/body/url", "url must be an absolute http or https URL with a host");
    }

    private static Map<String, String> headersOf(JsonNode headers) {
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        headers.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** The URL without user info or query string, which may hold credentials. */
    private static String redacted(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
