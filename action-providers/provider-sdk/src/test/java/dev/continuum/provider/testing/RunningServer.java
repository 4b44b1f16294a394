package dev.continuum.provider.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A real Vert.x HTTP server on a free port, for tests. */
public final class RunningServer implements AutoCloseable {

    private final Vertx vertx;
    private final HttpServer server;

    private RunningServer(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    public static RunningServer start(Vertx vertx, Consumer<Router> routes) {
        Router router = Router.router(vertx);
        routes.accept(router);
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return new RunningServer(vertx, server);
        } catch (Exception e) {
            throw new AssertionError("server did not start", e);
        }
    }

    public int port() {
        return server.actualPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() {
        try {
            server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing a test server: nothing useful to do
        }
    }
}
