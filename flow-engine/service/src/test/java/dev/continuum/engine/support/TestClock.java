package dev.continuum.engine.support;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Real time plus an offset tests can move forward: Waits and backoffs pass without sleeping.
 * {@link TimeSkipper} moves it by itself whenever the engine has nothing to do.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class TestClock extends Clock {

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
