package dev.continuum.engine.app;

import java.time.Instant;
import java.util.Optional;

/** From (inclusive) to (exclusive); either end may be open. */
public record TimeRange(Optional<Instant> from, Optional<Instant> to) {
    public static final TimeRange ANY = new TimeRange(Optional.empty(), Optional.empty());

    public boolean open() {
        return from.isEmpty() && to.isEmpty();
    }
}
