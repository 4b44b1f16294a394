package dev.continuum.engine.durability;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An echo whose start takes longer than an engine lease, served from the test JVM: the engine
 * that called it loses its lease while waiting, so another instance takes the run over with the
 * first turn still in flight. Counts each new action (never a repeated request_id) as an effect.
 */
final class SlowEchoProvider implements ActionProvider, AutoCloseable {

    private final Duration delay;
    private final Map<String, Integer> effects = new ConcurrentHashMap<>();
    private final Vertx vertx = Vertx.vertx();
    private final int port;

    SlowEchoProvider(Duration delay) {
        this.delay = delay;
        Router router = Router.router(vertx);
        ActionProviderServer.mount(router, "/slow", this, ProviderServerOptions.of(vertx));
        try {
            this.port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("cannot serve the slow echo provider: " + e.getMessage(), e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + port + "/slow";
    }

    Map<String, Integer> effectsByRequestId() {
        return new TreeMap<>(effects);
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Slow echo").synchronous(true).build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        effects.merge(request.requestId(), 1, Integer::sum);
        DurabilityRig.pause(delay.toMillis());
        return ctx.succeeded(request.body());
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }
}
