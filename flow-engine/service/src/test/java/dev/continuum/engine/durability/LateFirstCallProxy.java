package dev.continuum.engine.durability;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A proxy in front of the providers that holds the first {@code /run} of every request_id for a while before passing
 * it on, and passes everything else at once: the network (or a loaded machine) delaying the call of the engine that
 * made it. Held longer than a lease, that call reaches the provider after another engine has taken the run over,
 * called with the same request_id, committed and released the action. Counts how many held calls arrived after the
 * release of the action their request_id had started, so a test can show the late call really came that late.
 */
final class LateFirstCallProxy implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "connection", "transfer-encoding");

    private final Vertx vertx = Vertx.vertx();
    private final HttpClient client = vertx.createHttpClient();
    private final URI target;
    private final Duration hold;
    private final int port;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Map<String, String> actionOfRequest = new ConcurrentHashMap<>();
    private final Set<String> released = ConcurrentHashMap.newKeySet();
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger heldPassed = new AtomicInteger();
    private final AtomicInteger lateAfterRelease = new AtomicInteger();

    /** {@code targetBase}: the providers' base URL; the proxy serves the same paths. */
    LateFirstCallProxy(String targetBase, Duration hold) {
        this.target = URI.create(targetBase);
        this.hold = hold;
        try {
            port = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("cannot serve the proxy: " + e.getMessage(), e);
        }
    }

    /** The providers' base URL, through the proxy. */
    String url() {
        return "http://127.0.0.1:" + port + target.getPath();
    }

    int held() {
        return held.get();
    }

    int heldPassed() {
        return heldPassed.get();
    }

    /** Held calls that reached the provider after their request_id's action had been released. */
    int lateAfterRelease() {
        return lateAfterRelease.get();
    }

    private void handle(HttpServerRequest in) {
        in.body().onSuccess(body -> {
            String path = in.path();
            String requestId = in.method() == HttpMethod.POST && path.endsWith("/run")
                    ? body.toJsonObject().getString("request_id") : null;
            if (in.method() == HttpMethod.POST && path.endsWith("/release")) {
                String[] parts = path.split("/");
                released.add(parts[parts.length - 2]);
            }
            if (requestId != null && seen.add(requestId)) {
                held.incrementAndGet();
                vertx.setTimer(hold.toMillis(), t -> {
                    if (released.contains(actionOfRequest.getOrDefault(requestId, ""))) {
                        lateAfterRelease.incrementAndGet();
                    }
                    forward(in, body, requestId).onComplete(done -> heldPassed.incrementAndGet());
                });
            } else {
                forward(in, body, requestId);
            }
        });
    }

    private io.vertx.core.Future<Void> forward(HttpServerRequest in, Buffer body, String requestId) {
        RequestOptions options = new RequestOptions().setMethod(in.method()).setHost(target.getHost())
                .setPort(target.getPort()).setURI(in.uri());
        in.headers().forEach((name, value) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                options.addHeader(name, value);
            }
        });
        return client.request(options)
                .compose(out -> out.send(body))
                .compose(answer -> answer.body().map(answerBody -> {
                    if (requestId != null && answer.statusCode() < 300) {
                        actionOfRequest.putIfAbsent(requestId, answerBody.toJsonObject().getString("action_id"));
                    }
                    in.response().setStatusCode(answer.statusCode());
                    String type = answer.getHeader("Content-Type");
                    if (type != null) {
                        in.response().putHeader("Content-Type", type);
                    }
                    in.response().end(answerBody);
                    return (Void) null;
                }))
                .onFailure(e -> in.response().setStatusCode(502).end());
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }
}
