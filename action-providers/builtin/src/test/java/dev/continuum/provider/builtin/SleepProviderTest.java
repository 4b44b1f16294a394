package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import java.time.Duration;
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
    void shouldFinishAZeroSecondSleepPromptly() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus started = h.run("sleep", "s-0", "{\"seconds\": 0}");

            ActionStatus done = h.pollUntil("sleep", started.actionId(), Duration.ofSeconds(2), s -> s.status().terminal());

            assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
        }
    }

    @Test
    void shouldNeverWakeUpOnceCancelled() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus started = h.run("sleep", "s-2", "{\"seconds\": 0.3}");

            ActionStatus cancelled = h.cancel("sleep", started.actionId());
            BuiltinHarness.sleep(Duration.ofMillis(600));

            assertThat(cancelled.status()).isEqualTo(ActionState.FAILED);
            ActionStatus later = h.status("sleep", started.actionId());
            assertThat(later.status()).isEqualTo(ActionState.FAILED);
            assertThat(later.displayStatus()).isEqualTo("Cancelled");
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
