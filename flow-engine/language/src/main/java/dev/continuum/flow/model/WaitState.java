package dev.continuum.flow.model;

import java.time.Instant;
import java.util.Optional;

/**
 * Pauses the run for a time given in exactly one of four ways. {@code inputPath} selects the state input (the
 * paths in {@code until} read it), {@code outputPath} the part of that input passed on; each is a JSONPath or
 * {@code null} for JSON {@code null} (an empty object), as in the Amazon States Language.
 */
public record WaitState(String name, Optional<String> comment, String inputPath, String outputPath, Until until,
                        Optional<String> next) implements State {

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
