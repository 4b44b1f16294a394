package dev.continuum.provider.transfer.testing;

import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.MeasuredRates;
import dev.continuum.provider.transfer.provider.TransferProviders;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The transfer providers served in-process on a random port. The caller is taken from the
 * {@code X-Test-Caller} header, standing in for the token-validating resolver of the auth module.
 */
public final class ProviderHarness implements AutoCloseable {

    public static final String BASE = "/providers/transfer";

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    public final Http http;

    public ProviderHarness(EndpointRegistry endpoints, Path state) throws Exception {
        this(endpoints, state, TransferOptions.defaults());
    }

    public ProviderHarness(EndpointRegistry endpoints, Path state, TransferOptions base) throws Exception {
        this(endpoints, state, base, MeasuredRates.NONE);
    }

    public ProviderHarness(EndpointRegistry endpoints, Path state, TransferOptions base, MeasuredRates rates) throws Exception {
        Router router = Router.router(vertx);
        CallerResolver fromHeader = rc -> {
            String who = rc.request().getHeader("X-Test-Caller");
            return who == null ? Caller.ANONYMOUS : Caller.of(who);
        };
        TransferProviders.mountAll(router, BASE, vertx, endpoints,
                base.withChunkBytes(5 * 1024 * 1024).withProgressEvery(Duration.ofMillis(100)),
                state, fromHeader, rates);
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        http = new Http("http://127.0.0.1:" + server.actualPort() + BASE);
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
