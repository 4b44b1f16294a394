package dev.continuum.provider.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.client.CallContext;
import dev.continuum.provider.client.ClientOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** The built-ins served on a real HTTP server on a free port, called through the SDK client. */
final class BuiltinHarness implements AutoCloseable {

    final Vertx vertx = Vertx.vertx();
    final ActionProviderClient client = new ActionProviderClient(vertx, ClientOptions.defaults());
    private final HttpServer server;

    BuiltinHarness(BuiltinOptions options) {
        this(router -> {}, options);
    }

    BuiltinHarness(Consumer<Router> extraRoutes, BuiltinOptions options) {
        Router router = Router.router(vertx);
        extraRoutes.accept(router);
        BuiltinProviders.mountAll(router, "/providers", vertx, options);
        server = await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage());
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    String provider(String name) {
        return url("/providers/" + name);
    }

    ActionStatus run(String name, String requestId, String body) {
        return await(client.run(provider(name), ActionRequest.of(requestId, json(body)), CallContext.anonymous()));
    }

    ActionProviderException runFails(String name, String requestId, String body) {
        try {
            client.run(provider(name), ActionRequest.of(requestId, json(body)), CallContext.anonymous())
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ActionProviderException ape) {
                return ape;
            }
            throw new AssertionError(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("expected the run to fail");
    }

    ActionStatus status(String name, String actionId) {
        return await(client.status(provider(name), actionId, CallContext.anonymous()));
    }

    ActionStatus cancel(String name, String actionId) {
        return await(client.cancel(provider(name), actionId, CallContext.anonymous()));
    }

    /** Polls until {@code done} holds; the returned status satisfies it. */
    ActionStatus pollUntil(String name, String actionId, Duration timeout, Predicate<ActionStatus> done) {
        return Awaitility.await("action " + actionId + " of " + name + " to hold the awaited condition").atMost(timeout)
                .pollInterval(Duration.ofMillis(20)).until(() -> status(name, actionId), done);
    }

    static JsonNode json(String text) {
        try {
            return ProviderJson.mapper().readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Lets a period pass, for the check that a cancelled sleep never wakes: nothing to wait on but time. */
    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        client.close();
        await(vertx.close().toCompletionStage());
    }
}
