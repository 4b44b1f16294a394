package dev.continuum.provider.client;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import io.vertx.core.Vertx;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ActionProviderClientTest {

    private Vertx vertx;
    private ScriptedProvider provider;
    private RunningServer server;
    private ActionProviderClient client;
    private String actionUrl;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        provider = new ScriptedProvider();
        server = RunningServer.start(vertx, router ->
                ActionProviderServer.mount(router, "/scripted", provider, ProviderServerOptions.of(vertx)));
        client = new ActionProviderClient(vertx, ClientOptions.defaults().withReadTimeout(Duration.ofMillis(500)));
        actionUrl = server.url("/scripted");
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ActionProviderException failure(CompletionStage<?> stage) {
        Throwable t = catchThrowable(() -> stage.toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertThat(t).isInstanceOf(ExecutionException.class);
        assertThat(t.getCause()).isInstanceOf(ActionProviderException.class);
        return (ActionProviderException) t.getCause();
    }

    @Test
    void shouldRunPollCancelLogAndReleaseThroughTheProtocol() {
        ActionStatus started = await(client.run(actionUrl,
                ActionRequest.of("c-1", json("{\"message\":\"m\",\"mode\":\"later\"}")).withLabel("first"),
                CallContext.anonymous()));
        ActionStatus polled = await(client.status(actionUrl, started.actionId(), CallContext.anonymous()));
        ActionStatus cancelled = await(client.cancel(actionUrl, started.actionId(), CallContext.anonymous()));
        List<ActionLogEntry> log = await(client.log(actionUrl, started.actionId(), CallContext.anonymous()));
        ActionStatus released = await(client.release(actionUrl, started.actionId(), CallContext.anonymous()));

        assertThat(started.status()).isEqualTo(ActionState.ACTIVE);
        assertThat(started.label()).isEqualTo("first");
        assertThat(polled.actionId()).isEqualTo(started.actionId());
        assertThat(cancelled.status()).isEqualTo(ActionState.FAILED);
        assertThat(log).extracting(ActionLogEntry::code).contains("ActionStarted", "ActionFailed");
        assertThat(released.status()).isEqualTo(ActionState.FAILED);
    }

    @Test
    void shouldReturnTheSameActionWhenARunIsRepeated() {
        ActionRequest request = ActionRequest.of("c-2", json("{\"message\":\"m\"}"));

        ActionStatus first = await(client.run(actionUrl, request, CallContext.anonymous()));
        ActionStatus second = await(client.run(actionUrl + "/", request, CallContext.anonymous()));

        assertThat(second.actionId()).isEqualTo(first.actionId());
        assertThat(provider.starts.get()).isEqualTo(1);
    }

    @Test
    void shouldIntrospectTheProvider() {
        ProviderDescription description = await(client.introspect(actionUrl, CallContext.anonymous()));

        assertThat(description.title()).isEqualTo("Scripted");
        assertThat(description.globusAuthScope()).isEqualTo("urn:test:scope");
        assertThat(description.inputSchema()).isEqualTo(ScriptedProvider.SCHEMA);
    }

    @Test
    void shouldFailNonRetryablyWithTheProblemWhenInputIsInvalid() {
        ActionProviderException e = failure(client.run(actionUrl, ActionRequest.of("c-3", json("{}")), CallContext.anonymous()));

        assertThat(e.httpStatus()).isEqualTo(400);
        assertThat(e.retryable()).isFalse();
        assertThat(e.problem()).get().satisfies(p ->
                assertThat(p.errors()).extracting(err -> err.pointer()).containsExactly("/body/message"));
    }

    @Test
    void shouldFailNonRetryablyWith404ForAnUnknownAction() {
        ActionProviderException e = failure(client.status(actionUrl, "missing", CallContext.anonymous()));

        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void shouldFailRetryablyWithStatusZeroWhenTheProviderIsUnreachable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        ActionProviderException e = failure(client.status("http://127.0.0.1:" + closedPort, "x", CallContext.anonymous()));

        assertThat(e.httpStatus()).isZero();
        assertThat(e.retryable()).isTrue();
    }

    @Test
    void shouldFailRetryablyWhenTheProviderDoesNotAnswerInTime() {
        try (RunningServer silent = RunningServer.start(vertx, router -> router.route().handler(rc -> { /* never answers */ }))) {
            ActionProviderException e = failure(client.status(silent.url(""), "x", CallContext.anonymous()));

            assertThat(e.httpStatus()).isZero();
            assertThat(e.retryable()).isTrue();
        }
    }

    @Test
    void shouldTreatOverloadAsRetryableAndServerBugsAsNot() {
        try (RunningServer flaky = RunningServer.start(vertx, router -> {
            router.get("/busy/:id/status").handler(rc -> rc.response().setStatusCode(503).end("try later"));
            router.get("/throttled/:id/status").handler(rc -> rc.response().setStatusCode(429).end());
            router.get("/broken/:id/status").handler(rc -> rc.response().setStatusCode(500)
                    .putHeader("Content-Type", "application/json").end("{\"code\":\"InternalError\",\"description\":\"db down\"}"));
        })) {
            ActionProviderException busy = failure(client.status(flaky.url("/busy"), "x", CallContext.anonymous()));
            ActionProviderException throttled = failure(client.status(flaky.url("/throttled"), "x", CallContext.anonymous()));
            ActionProviderException broken = failure(client.status(flaky.url("/broken"), "x", CallContext.anonymous()));

            assertThat(busy.retryable()).isTrue();
            assertThat(busy.httpStatus()).isEqualTo(503);
            assertThat(busy.problem()).get().extracting(p -> p.detail()).isEqualTo("try later");
            assertThat(throttled.retryable()).isTrue();
            assertThat(broken.retryable()).isFalse();
            assertThat(broken.problem()).get().extracting(p -> p.detail()).isEqualTo("db down");
        }
    }

    @Test
    void shouldSendTheBearerTokenAndCallbackHeader() {
        Map<String, String> seen = new ConcurrentHashMap<>();
        try (RunningServer recorder = RunningServer.start(vertx, router -> router.post("/p/run").handler(rc -> {
            seen.put("auth", String.valueOf(rc.request().getHeader("Authorization")));
            seen.put("callback", String.valueOf(rc.request().getHeader("X-Continuum-Callback")));
            rc.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                    .end("{\"action_id\":\"a\",\"status\":\"ACTIVE\",\"creator_id\":\"u\",\"details\":{}}");
        }))) {
            CallContext ctx = CallContext.bearer("tok-123").withCallback("http://engine/callback/1");

            ActionStatus status = await(client.run(recorder.url("/p"), ActionRequest.of("r", json("{}")), ctx));

            assertThat(status.actionId()).isEqualTo("a");
            assertThat(seen).containsEntry("auth", "Bearer tok-123").containsEntry("callback", "http://engine/callback/1");
            assertThat(ctx.toString()).doesNotContain("tok-123");
        }
    }
}
