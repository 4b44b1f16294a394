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
    /** Null: real time runs under the offset; else the clock stands at this moment until a test moves it. */
    private final Instant stoppedAt;

    public VirtualClock() {
        this(null);
    }

    private VirtualClock(Instant stoppedAt) {
        this.stoppedAt = stoppedAt;
    }

    /**
     * A clock that stands still at {@code start} until the test moves it, for a test that reads exact durations off
     * it (a task waited exactly 2.5 s; a minute's bucket closes at its end).
     */
    public static VirtualClock stoppedAt(Instant start) {
        return new VirtualClock(start);
    }

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
        return (stoppedAt == null ? Instant.now() : stoppedAt).plus(offset.get());
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
