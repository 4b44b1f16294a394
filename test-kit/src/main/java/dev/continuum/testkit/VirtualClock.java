package dev.continuum.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Real time plus an offset tests can move forward: Waits and backoffs pass without sleeping, a device's clock jumps
 * (or a day passes) while it runs. The engine's {@code TestClock} is this clock as a CDI bean, and its
 * {@code TimeSkipper} moves it by itself whenever the engine has nothing to do.
 */
public class VirtualClock extends Clock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    public void advance(Duration by) {
        offset.updateAndGet(current -> current.plus(by));
    }

    /** Moves time forward to {@code when}; a moment already past leaves the clock alone. */
    public void advanceTo(Instant when) {
        Duration ahead = Duration.between(instant(), when);
        if (!ahead.isNegative()) {
            advance(ahead);
        }
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
