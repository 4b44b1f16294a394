package dev.continuum.provider.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import dev.continuum.provider.testing.TestHttp;
import dev.continuum.provider.testing.TestHttp.Reply;
import io.vertx.core.Vertx;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Behaviour that depends on {@link ProviderServerOptions}: body limit, release sweep, resolver refusals. */
class ActionLifecycleOptionsTest {

    private final Vertx vertx = Vertx.vertx();
    private RunningServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private String serve(ActionProvider provider, UnaryOperator<ProviderServerOptions> options) {
        server = RunningServer.start(vertx, router -> ActionProviderServer.mount(router, "/p", provider,
                options.apply(ProviderServerOptions.of(vertx))));
        return server.url("/p");
    }

    @Test
    void shouldAnswer413ProblemForABodyOverTheLimit() {
        String base = serve(new ScriptedProvider(), o -> o.withMaxBodyBytes(100));

        Reply reply = TestHttp.post(base + "/run", "{\"request_id\":\"big\",\"body\":{\"message\":\"" + "x".repeat(500) + "\"}}");

        assertThat(reply.status()).isEqualTo(413);
        assertThat(reply.contentType()).startsWith("application/problem+json");
    }

    @Test
    void shouldForgetAFinishedActionOnceItsReleaseAfterHasPassed() {
        String base = serve(new ScriptedProvider(), o -> o.withReleaseSweep(Duration.ofMillis(50)));

        Reply started = TestHttp.post(base + "/run",
                "{\"request_id\":\"short\",\"body\":{\"message\":\"m\"},\"release_after\":\"PT0.2S\"}");
        String id = started.json().path("action_id").asText();

        assertThat(started.status()).isEqualTo(202);
        TestHttp.await(Duration.ofSeconds(5), "automatic release", () -> TestHttp.get(base + "/" + id + "/status").status() == 404);
    }

    @Test
    void shouldRefuseCallersTheResolverRejectsButStillServeAPublicDescription() {
        String base = serve(new ScriptedProvider(), o -> o.withCallerResolver(rc -> {
            throw new CallerRejectedException(401, "a bearer token is required");
        }));

        Reply run = TestHttp.post(base + "/run", "{\"request_id\":\"r\",\"body\":{\"message\":\"m\"}}");
        Reply introspection = TestHttp.get(base + "/");

        assertThat(run.status()).isEqualTo(401);
        assertThat(run.json().path("detail").asText()).isEqualTo("a bearer token is required");
        assertThat(introspection.status()).isEqualTo(200);
    }

    @Test
    void shouldServeAnyoneWhenTheEnvironmentLeavesAuthenticationOff() {
        String base = serve(new ScriptedProvider(), o -> o.withCallerResolver(
                dev.continuum.provider.server.auth.JwtCallerResolver.fromEnvironment(Map.of(), "continuum-provider-transfer", "actions:transfer")));

        assertThat(TestHttp.post(base + "/run", "{\"request_id\":\"open\",\"body\":{\"message\":\"m\"}}").status()).isEqualTo(202);
    }

    @Test
    void shouldRefuseCallersWithoutATokenWhenTheEnvironmentTurnsAuthenticationOn() {
        String base = serve(new ScriptedProvider(), o -> o.withCallerResolver(
                dev.continuum.provider.server.auth.JwtCallerResolver.fromEnvironment(Map.of("CONTINUUM_AUTH_ENABLED", "true",
                        "CONTINUUM_AUTH_ISSUER", "http://127.0.0.1:9/realms/continuum"), "continuum-provider-transfer", "actions:transfer")));

        Reply anonymous = TestHttp.post(base + "/run", "{\"request_id\":\"closed\",\"body\":{\"message\":\"m\"}}");
        Reply unverifiable = TestHttp.post(base + "/run", "{\"request_id\":\"closed2\",\"body\":{\"message\":\"m\"}}",
                Map.of("Authorization", "Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2ln"));

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(unverifiable.status()).as("issuer unreachable: retry, not a 500").isEqualTo(503);
    }

    @Test
    void shouldPushTheCancelledStatusToTheCallbackUrl() {
        List<String> received = new CopyOnWriteArrayList<>();
        ScriptedProvider provider = new ScriptedProvider();
        String base = serve(provider, o -> o);
        try (RunningServer engine = RunningServer.start(vertx, router -> router.post("/cb").handler(BodyHandler.create())
                .handler(rc -> {
                    received.add(rc.body().asJsonObject().getString("display_status"));
                    rc.response().setStatusCode(200).end();
                }))) {
            Reply started = TestHttp.post(base + "/run", "{\"request_id\":\"c\",\"body\":{\"message\":\"m\",\"mode\":\"later\"}}",
                    Map.of("X-Continuum-Callback", engine.url("/cb")));

            TestHttp.post(base + "/" + started.json().path("action_id").asText() + "/cancel", null);

            TestHttp.await(Duration.ofSeconds(5), "callback", () -> !received.isEmpty());
            assertThat(received).containsExactly("Cancelled");
        }
    }
}
