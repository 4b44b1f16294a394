package dev.continuum.edge.gateway.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition instead of sleeping a fixed time. */
public final class Await {

    private Await() {}

    public static boolean until(Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }
}
