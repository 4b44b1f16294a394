package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.InMemoryActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.StoredAction;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class SleepProviderTest {

    @Test
    void shouldStayActiveThenSucceedWithTheSleptSeconds() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            long before = System.nanoTime();
            ActionStatus started = h.run("sleep", "s-1", "{\"seconds\": 0.4}");

            ActionStatus done = h.pollUntil("sleep", started.actionId(), Duration.ofSeconds(5), s -> s.status().terminal());

            assertThat(started.status()).isEqualTo(ActionState.ACTIVE);
            assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(done.details().path("slept_seconds").asDouble()).isEqualTo(0.4);
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        }
    }

    @Test
    void shouldSucceedAZeroSecondSleepInItsStartCall() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus started = h.run("sleep", "s-0", "{\"seconds\": 0}");

            assertThat(started.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(started.details().path("slept_seconds").asDouble()).isZero();
        }
    }

    @Test
    void shouldNeverWakeUpOnceCancelled() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            // long enough that a slow machine cannot finish the sleep before the cancel arrives
            ActionStatus started = h.run("sleep", "s-2", "{\"seconds\": 1}");

            ActionStatus cancelled = h.cancel("sleep", started.actionId());
            BuiltinHarness.sleep(Duration.ofMillis(1300));

            assertThat(cancelled.status()).isEqualTo(ActionState.FAILED);
            ActionStatus later = h.status("sleep", started.actionId());
            assertThat(later.status()).isEqualTo(ActionState.FAILED);
            assertThat(later.displayStatus()).isEqualTo("Cancelled");
        }
    }

    @Test
    void shouldReArmTheTimerOfAnUnfinishedSleepFoundInTheStoreAtStartup() {
        InMemoryActionStore store = new InMemoryActionStore();
        Instant started = Instant.now();
        ActionStatus sleeping = new ActionStatus("a-resumed", ActionState.ACTIVE, "local:anonymous", null, null, null,
                started, null, "P30D", "Sleeping", BuiltinHarness.json(
                        "{\"seconds\": 0.3, \"wake_at\": \"" + started.plusMillis(300) + "\"}"));
        store.insertIfAbsent(new StoredAction(sleeping,
                ActionRequest.of("r-resumed", BuiltinHarness.json("{\"seconds\": 0.3}")), null, List.of(), null));
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            ActionProviderServer.mount(router, "/sleep", new SleepProvider(), ProviderServerOptions.of(vertx).withStore(store));

            TestHttpless.await("the resumed action a-resumed to finish", () -> store.find("a-resumed").orElseThrow().finished());

            ActionStatus done = store.find("a-resumed").orElseThrow().status();
            assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(done.details().path("slept_seconds").asDouble()).isEqualTo(0.3);
        } finally {
            vertx.close();
        }
    }

    /** The resumed action is checked through the store: no HTTP server is needed for resume. */
    private static final class TestHttpless {
        static void await(String what, java.util.function.BooleanSupplier done) {
            Awaitility.await(what).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(done::getAsBoolean);
        }
    }

    @Test
    void shouldRejectNegativeOrMissingSeconds() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionProviderException negative = h.runFails("sleep", "s-3", "{\"seconds\": -1}");
            ActionProviderException missing = h.runFails("sleep", "s-4", "{\"secs\": 1}");

            assertThat(negative.httpStatus()).isEqualTo(400);
            assertThat(negative.problem().orElseThrow().errors().get(0).pointer()).isEqualTo("/body/seconds");
            assertThat(missing.problem().orElseThrow().errors()).extracting(e -> e.pointer())
                    .contains("/body/seconds");
        }
    }
}
