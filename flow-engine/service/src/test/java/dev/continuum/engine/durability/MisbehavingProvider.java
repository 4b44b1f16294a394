package dev.continuum.engine.durability;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An action provider that misbehaves in one way per path, served from the test JVM: {@code /broken} answers every
 * {@code /run} with HTTP 500, {@code /garbage} with 200 and a body that is not JSON, {@code /silent} never answers,
 * {@code /flaky} answers 503 twice and then succeeds like a healthy synchronous provider. It records each request_id
 * it was sent per path, so a test can tell how often the engine tried.
 */
final class MisbehavingProvider implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final int port;
    private final Map<String, Set<String>> requestIds = new ConcurrentHashMap<>();
    private final Map<String, Integer> calls = new ConcurrentHashMap<>();

    MisbehavingProvider() {
        try {
            port = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("cannot serve the misbehaving provider: " + e.getMessage(), e);
        }
    }

    String url(String behaviour) {
        return "http://127.0.0.1:" + port + "/" + behaviour;
    }

    /** The distinct request_ids each behaviour's /run received. */
    Map<String, Integer> distinctRequestIds() {
        Map<String, Integer> counts = new TreeMap<>();
        requestIds.forEach((path, ids) -> counts.put(path, ids.size()));
        return counts;
    }

    private void handle(HttpServerRequest request) {
        String behaviour = request.path().split("/")[1];
        if (!request.path().endsWith("/run")) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.body().onSuccess(body -> {
            String requestId = body.toJsonObject().getString("request_id");
            requestIds.computeIfAbsent(behaviour, b -> ConcurrentHashMap.newKeySet()).add(requestId);
            int call = calls.merge(behaviour, 1, Integer::sum);
            switch (behaviour) {
                case "broken" -> problem(request, 500, "Internal Server Error");
                case "garbage" -> request.response().setStatusCode(200).putHeader("Content-Type", "application/json")
                        .end("<html><body>Gateway says hello</body>");
                case "silent" -> { } // never answered: the engine's read timeout ends the call
                case "flaky" -> {
                    if (call <= 2) {
                        problem(request, 503, "Service Unavailable");
                    } else {
                        request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                                .end(succeeded(requestId, body.toJsonObject().getJsonObject("body")).encode());
                    }
                }
                default -> request.response().setStatusCode(404).end();
            }
        });
    }

    private static void problem(HttpServerRequest request, int status, String title) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/problem+json")
                .end(new JsonObject().put("type", "about:blank").put("title", title).put("status", status).encode());
    }

    private static JsonObject succeeded(String requestId, JsonObject body) {
        String now = Instant.now().toString();
        return new JsonObject().put("action_id", "flaky-" + requestId.hashCode()).put("status", "SUCCEEDED")
                .put("creator_id", "test").put("start_time", now).put("completion_time", now)
                .put("release_after", "P30D").put("display_status", "Done").put("details", body);
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }
}
