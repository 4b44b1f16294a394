package dev.continuum.provider.server;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import dev.continuum.provider.testing.TestHttp;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The in-process face of a mounted provider answers as its routes do, without HTTP. */
class LocalProviderTest {

    private Vertx vertx;
    private ScriptedProvider provider;
    private RunningServer server;
    private LocalProvider local;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        provider = new ScriptedProvider();
        LocalProvider[] mounted = new LocalProvider[1];
        server = RunningServer.start(vertx, router -> mounted[0] = ActionProviderServer.mount(router, "/providers/scripted",
                provider, ProviderServerOptions.of(vertx)));
        local = mounted[0];
    }

    @AfterEach
    void stop() {
        server.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static ActionRequest request(String requestId, String body) {
        return ActionRequest.of(requestId, json(body));
    }

    private static <T> T await(java.util.concurrent.CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }

    @Test
    void shouldAnswerASynchronousActionInTheRunAnswerAndNeverCallTheListener() {
        List<ActionStatus> finished = new CopyOnWriteArrayList<>();

        ActionStatus status = await(local.run(Optional.empty(), request("r1", "{\"message\":\"hi\"}"), finished::add));

        assertThat(status.status()).isEqualTo(ActionState.SUCCEEDED);
        assertThat(status.details().path("message").asText()).isEqualTo("hi");
        assertThat(finished).isEmpty();
    }

    @Test
    void shouldHandALaterFinishToTheListenerOnceAndShowItOverHttpToo() {
        List<ActionStatus> finished = new CopyOnWriteArrayList<>();
        ActionStatus started = await(local.run(Optional.empty(),
                request("r2", "{\"message\":\"m\",\"mode\":\"later\"}"), finished::add));
        assertThat(started.status()).isEqualTo(ActionState.ACTIVE);

        provider.context(started.actionId()).complete(json("{\"done\":true}"));

        TestHttp.await(Duration.ofSeconds(10), "listener", () -> !finished.isEmpty());
        assertThat(finished).singleElement().satisfies(s -> assertThat(s.status()).isEqualTo(ActionState.SUCCEEDED));
        assertThat(await(local.status(Optional.empty(), started.actionId())).status()).isEqualTo(ActionState.SUCCEEDED);
        assertThat(TestHttp.get(server.url("/providers/scripted/" + started.actionId() + "/status")).json()
                .path("status").asText()).isEqualTo("SUCCEEDED");
    }

    @Test
    void shouldRefuseABodyOutsideTheInputSchemaAsTheRouteWould() {
        assertThatThrownBy(() -> await(local.run(Optional.empty(), request("r3", "{\"mode\":\"now\"}"), s -> { })))
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(ActionProviderException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(400);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("message");
                });
        assertThat(provider.starts.get()).isZero();
    }

    @Test
    void shouldRefuseToReleaseAnActiveActionWithAConflict() {
        ActionStatus started = await(local.run(Optional.empty(),
                request("r4", "{\"message\":\"m\",\"mode\":\"later\"}"), s -> { }));

        assertThatThrownBy(() -> await(local.release(Optional.empty(), started.actionId())))
                .cause().isInstanceOfSatisfying(ActionProviderException.class, e -> assertThat(e.httpStatus()).isEqualTo(409));
        assertThat(await(local.cancel(Optional.empty(), started.actionId())).status()).isEqualTo(ActionState.FAILED);
    }

    @Test
    void shouldStopTheProviderOnCloseAndStoreNothingItsActionsAskForAfterwards() {
        ActionStatus started = await(local.run(Optional.empty(),
                request("r5", "{\"message\":\"m\",\"mode\":\"later\"}"), s -> { }));
        ActionContext ctx = provider.context(started.actionId());
        java.util.concurrent.atomic.AtomicBoolean timerRan = new java.util.concurrent.atomic.AtomicBoolean();
        ctx.schedule(Duration.ofMillis(300), () -> timerRan.set(true));

        local.close();
        // what a poller still winding down in the closed provider would do
        ctx.progress("Late progress", json("{\"late\":true}"));
        ctx.log("Late", "late log entry", null);
        ctx.fail("Late failure", json("{\"error\":\"LateFailure\"}"));

        assertThat(provider.stops.get()).isEqualTo(1);
        assertThat(ctx.finished()).as("a closed provider's actions look finished to its own pollers").isTrue();
        var status = TestHttp.get(server.url("/providers/scripted/" + started.actionId() + "/status")).json();
        assertThat(status.path("status").asText()).as(status.toString()).isEqualTo("ACTIVE");
        assertThat(status.path("display_status").asText()).isEqualTo("Waiting");
        assertThat(TestHttp.get(server.url("/providers/scripted/" + started.actionId() + "/log")).text())
                .doesNotContain("Late");
        // the timer was due 300 ms after it was set: it stays silent past that
        Awaitility.await("a timer of the closed provider stays silent").during(Duration.ofMillis(600))
                .atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50)).until(() -> !timerRan.get());
        assertThatThrownBy(() -> await(local.run(Optional.empty(), request("r6", "{\"message\":\"m\"}"), s -> { })))
                .cause().isInstanceOfSatisfying(ActionProviderException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(503);
                    assertThat(e.retryable()).isTrue();
                });
        assertThat(provider.starts.get()).isEqualTo(1);
    }
}
