package dev.continuum.provider.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.api.ProviderJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Calls any action provider that speaks the Globus Action Provider API. {@code actionUrl} is the
 * provider's base URL (its introspection document lives there). Every method completes
 * exceptionally with {@link ActionProviderException} on failure; it never throws.
 * Thread-safe; share one per Vert.x instance.
 */
public final class ActionProviderClient implements AutoCloseable {

    /** Header naming the URL the provider should POST the final action status to. */
    public static final String CALLBACK_HEADER = "X-Continuum-Callback";

    private static final ObjectMapper JSON = ProviderJson.mapper();
    private static final Set<Integer> CREATED_OR_REPEATED = Set.of(200, 201, 202);
    private static final Set<Integer> OK = Set.of(200, 202);
    private static final int LOG_PAGE = 1000;
    private static final int MAX_LOG_PAGES = 100;

    private final WebClient web;
    private final long readTimeoutMillis;

    public ActionProviderClient(Vertx vertx, ClientOptions options) {
        WebClientOptions web = new WebClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()))
                .setMaxPoolSize(options.maxPoolSize())
                .setKeepAlive(options.keepAlive())
                .setKeepAliveTimeout((int) Math.max(1, options.keepAliveTimeout().toSeconds()))
                .setFollowRedirects(false)
                // the trace context is the caller's (CallContext.traceHeaders): Vert.x' own tracer, where a
                // framework installs one, must not replace it with a span of its own choosing
                .setTracingPolicy(io.vertx.core.tracing.TracingPolicy.IGNORE)
                .setUserAgent("continuum-provider-client");
        this.web = WebClient.create(vertx, web);
        this.readTimeoutMillis = Math.max(1, options.readTimeout().toMillis());
    }

    public CompletionStage<ActionStatus> run(String actionUrl, ActionRequest request, CallContext ctx) {
        String url = base(actionUrl) + "/run";
        Buffer body;
        try {
            body = Buffer.buffer(JSON.writeValueAsBytes(request));
        } catch (IOException e) {
            return Future.<ActionStatus>failedFuture(new ActionProviderException(
                    "Cannot encode the action request: " + e.getMessage(), 0, false, null, e)).toCompletionStage();
        }
        HttpRequest<Buffer> req = prepare(HttpMethod.POST, url, ctx).putHeader("Content-Type", "application/json");
        ctx.callbackUrl().ifPresent(cb -> req.putHeader(CALLBACK_HEADER, cb));
        return call(url, req, body, CREATED_OR_REPEATED, b -> JSON.readValue(b.getBytes(), ActionStatus.class));
    }

    public CompletionStage<ActionStatus> status(String actionUrl, String actionId, CallContext ctx) {
        String url = actionPath(actionUrl, actionId) + "/status";
        return call(url, prepare(HttpMethod.GET, url, ctx), null, OK, b -> JSON.readValue(b.getBytes(), ActionStatus.class));
    }

    public CompletionStage<ActionStatus> cancel(String actionUrl, String actionId, CallContext ctx) {
        String url = actionPath(actionUrl, actionId) + "/cancel";
        return call(url, prepare(HttpMethod.POST, url, ctx), null, OK, b -> JSON.readValue(b.getBytes(), ActionStatus.class));
    }

    public CompletionStage<ActionStatus> release(String actionUrl, String actionId, CallContext ctx) {
        String url = actionPath(actionUrl, actionId) + "/release";
        return call(url, prepare(HttpMethod.POST, url, ctx), null, OK, b -> JSON.readValue(b.getBytes(), ActionStatus.class));
    }

    /** All log entries, following {@code marker} pages (bounded, so a misbehaving provider cannot loop us). */
    public CompletionStage<List<ActionLogEntry>> log(String actionUrl, String actionId, CallContext ctx) {
        List<ActionLogEntry> all = new ArrayList<>();
        return logPage(actionUrl, actionId, ctx, null, all, 0).map(v -> (List<ActionLogEntry>) List.copyOf(all))
                .toCompletionStage();
    }

    public CompletionStage<ProviderDescription> introspect(String actionUrl, CallContext ctx) {
        String url = base(actionUrl) + "/";
        return call(url, prepare(HttpMethod.GET, url, ctx), null, OK,
                b -> JSON.readValue(b.getBytes(), ProviderDescription.class));
    }

    @Override
    public void close() {
        web.close();
    }

    private Future<Void> logPage(String actionUrl, String actionId, CallContext ctx, String marker,
                                 List<ActionLogEntry> into, int page) {
        String url = actionPath(actionUrl, actionId) + "/log?limit=" + LOG_PAGE
                + (marker == null ? "" : "&marker=" + encode(marker));
        Future<JsonNode> answer = send(url, prepare(HttpMethod.GET, url, ctx), null, OK,
                b -> JSON.readTree(b.getBytes()));
        return answer.compose(doc -> {
            // Accept both our paged object and a bare array, which some providers return.
            JsonNode entries = doc.isArray() ? doc : doc.path("entries");
            if (entries instanceof ArrayNode array) {
                for (JsonNode e : array) {
                    into.add(JSON.convertValue(e, ActionLogEntry.class));
                }
            }
            JsonNode next = doc.path("marker");
            boolean more = doc.path("has_next_page").asBoolean(false) && next.isTextual();
            return more && page + 1 < MAX_LOG_PAGES
                    ? logPage(actionUrl, actionId, ctx, next.asText(), into, page + 1)
                    : Future.succeededFuture();
        });
    }

    private HttpRequest<Buffer> prepare(HttpMethod method, String url, CallContext ctx) {
        HttpRequest<Buffer> req = web.requestAbs(method, url)
                .timeout(readTimeoutMillis)
                .putHeader("Accept", "application/json");
        ctx.bearerToken().ifPresent(token -> req.putHeader("Authorization", "Bearer " + token));
        ctx.traceHeaders().forEach(req::putHeader);
        return req;
    }

    private <T> CompletionStage<T> call(String url, HttpRequest<Buffer> req, Buffer body, Set<Integer> ok,
                                        Parser<T> parser) {
        return send(url, req, body, ok, parser).toCompletionStage();
    }

    private <T> Future<T> send(String url, HttpRequest<Buffer> req, Buffer body, Set<Integer> ok, Parser<T> parser) {
        Future<HttpResponse<Buffer>> sent;
        try {
            sent = body == null ? req.send() : req.sendBuffer(body);
        } catch (RuntimeException e) { // e.g. a malformed URL is rejected synchronously
            return Future.failedFuture(new ActionProviderException(
                    "Invalid action provider URL " + url + ": " + e.getMessage(), 0, false, null, e));
        }
        return sent.transform(ar -> {
            if (ar.failed()) {
                return Future.failedFuture(ActionProviderException.unreachable(url, ar.cause()));
            }
            HttpResponse<Buffer> response = ar.result();
            int status = response.statusCode();
            if (!ok.contains(status)) {
                return Future.failedFuture(ActionProviderException.fromResponse(url, status, problemOf(response)));
            }
            try {
                return Future.succeededFuture(parser.parse(response.bodyAsBuffer() == null ? Buffer.buffer("{}") : response.bodyAsBuffer()));
            } catch (IOException | RuntimeException e) {
                return Future.failedFuture(new ActionProviderException(
                        "Action provider at " + url + " sent an unreadable answer: " + e.getMessage(), status, false, null, e));
            }
        });
    }

    /** Reads RFC 9457 bodies, Globus-style {code, description} bodies, or plain text. */
    static Problem problemOf(HttpResponse<Buffer> response) {
        int status = response.statusCode();
        Buffer body = response.bodyAsBuffer();
        String text = body == null ? "" : body.toString(StandardCharsets.UTF_8);
        try {
            JsonNode doc = text.isBlank() ? null : JSON.readTree(text);
            if (doc != null && doc.isObject()) {
                if (doc.has("title") || doc.has("detail")) {
                    Problem p = JSON.convertValue(doc, Problem.class);
                    return p.status() == 0 ? new Problem(p.type(), p.title(), status, p.detail(), p.errors()) : p;
                }
                if (doc.has("code") || doc.has("description")) {
                    return new Problem("about:blank", doc.path("code").asText(response.statusMessage()), status,
                            doc.path("description").asText(null), List.of());
                }
            }
        } catch (IOException | IllegalArgumentException ignored) {
            // not JSON: fall through to the plain-text form
        }
        String detail = text.isBlank() ? null : text.substring(0, Math.min(500, text.length()));
        return new Problem("about:blank", response.statusMessage(), status, detail, List.of());
    }

    private static String base(String actionUrl) {
        String url = actionUrl.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }

    private static String actionPath(String actionUrl, String actionId) {
        return base(actionUrl) + "/" + encode(actionId);
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @FunctionalInterface
    private interface Parser<T> {
        T parse(Buffer body) throws IOException;
    }
}
