package dev.continuum.flow.model;

import java.time.Instant;
import java.util.Optional;

/** Pauses the run for a time given in exactly one of four ways. */
public record WaitState(String name, Optional<String> comment, Until until, Optional<String> next) implements State {

    public sealed interface Until {
    }

    public record Seconds(long seconds) implements Until {
    }

    public record Timestamp(Instant timestamp) implements Until {
    }

    /** JSONPath to a number of seconds in the state input. */
    public record SecondsPath(String path) implements Until {
    }

    /** JSONPath to an RFC 3339 timestamp in the state input. */
    public record TimestampPath(String path) implements Until {
    }
}
