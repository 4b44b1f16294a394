package dev.continuum.edge.gateway.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.ThrowingRunnable;

/** Polls a condition instead of sleeping a fixed time; or checks that one holds over a period. */
public final class Await {

    private Await() {}

    /** Whether the condition holds within the timeout (Awaitility, polled every 20 ms); the caller asserts with its own words. */
    public static boolean until(Duration timeout, BooleanSupplier condition) {
        try {
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException timedOut) {
            return condition.getAsBoolean();
        }
    }

    /**
     * Fails unless the condition holds for the whole period (a negative check: nothing more comes in it); it may
     * take {@code period} plus 10 s to settle first.
     */
    public static void holdsFor(String what, Duration period, ThrowingRunnable assertion) {
        Awaitility.await(what).during(period).atMost(period.plusSeconds(10)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(assertion);
    }
}
