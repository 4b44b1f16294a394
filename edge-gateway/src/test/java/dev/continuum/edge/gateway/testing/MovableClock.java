package dev.continuum.edge.gateway.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock plus an offset a test moves: a device whose clock jumps (or a day that passes) while it runs. */
public final class MovableClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    public void move(Duration by) {
        offset = offset.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }
}
