package dev.continuum.provider.inference;

import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/** The inference provider on a started {@link EdgeCloud}, served over HTTP on a free port as the engine calls it. */
final class ServedInferenceProvider {
    static final String PATH = "/providers/inference";

    private ServedInferenceProvider() {
    }

    static HttpServer serve(Vertx vertx, EdgeCloud cloud, ProviderServerOptions options) throws Exception {
        Router router = Router.router(vertx);
        ActionProviderServer.mount(router, PATH,
                new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new GatewayPlanner(Clock.systemUTC()), Clock.systemUTC()),
                options);
        return vertx.createHttpServer().requestHandler(router).listen(0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static String url(HttpServer server) {
        return "http://127.0.0.1:" + server.actualPort() + PATH;
    }
}
