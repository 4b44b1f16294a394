package dev.continuum.provider.inference;

import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** The inference provider on a started {@link EdgeCloud}, served over HTTP on a free port as the engine calls it. */
public final class ServedInferenceProvider {
    public static final String PATH = "/providers/inference";

    private ServedInferenceProvider() {
    }

    /** The provider placing jobs in process ({@link GatewayPlanner}). */
    public static HttpServer serve(Vertx vertx, EdgeCloud cloud, ProviderServerOptions options) throws Exception {
        return serve(vertx, cloud, options, router -> {
        });
    }

    /** The same, with more routes on the same server ({@code alsoServe}, e.g. a callback the test listens on). */
    public static HttpServer serve(Vertx vertx, EdgeCloud cloud, ProviderServerOptions options,
                                   Consumer<Router> alsoServe) throws Exception {
        return serve(vertx, new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC()),
                Clock.systemUTC()), options, alsoServe);
    }

    /** A provider built by the caller (another placement, another role), served the same way. */
    public static HttpServer serve(Vertx vertx, InferenceProvider provider, ProviderServerOptions options) throws Exception {
        return serve(vertx, provider, options, router -> {
        });
    }

    private static HttpServer serve(Vertx vertx, InferenceProvider provider, ProviderServerOptions options,
                                    Consumer<Router> alsoServe) throws Exception {
        return mount(vertx, provider, options, alsoServe).server();
    }

    /** The provider served, and the handle that stops it ({@link LocalProvider#close}) as its process would at exit. */
    public record Served(HttpServer server, LocalProvider provider) {
        public String url() {
            return ServedInferenceProvider.url(server);
        }
    }

    public static Served mount(Vertx vertx, InferenceProvider provider, ProviderServerOptions options) throws Exception {
        return mount(vertx, provider, options, router -> {
        });
    }

    private static Served mount(Vertx vertx, InferenceProvider provider, ProviderServerOptions options,
                                Consumer<Router> alsoServe) throws Exception {
        Router router = Router.router(vertx);
        LocalProvider local = ActionProviderServer.mount(router, PATH, provider, options);
        alsoServe.accept(router);
        return new Served(vertx.createHttpServer().requestHandler(router).listen(0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS), local);
    }

    /** The base URL the server answers on ({@code http://127.0.0.1:port}). */
    public static String base(HttpServer server) {
        return "http://127.0.0.1:" + server.actualPort();
    }

    public static String url(HttpServer server) {
        return base(server) + PATH;
    }
}
