package dev.continuum.engine.app;

import java.time.Duration;

/**
 * Runs that are due (a timer, a poll, a takeover after their instance died) and that no live instance holds:
 * the engine's queue. {@code oldestWait} is how long the longest-waiting of them has been due (zero when none):
 * it grows when instances cannot keep up, or when a dead instance's leases have not expired yet.
 */
public record DueBacklog(long runs, Duration oldestWait) {}
