package dev.continuum.bench.engine;

import java.time.Duration;
import java.time.Instant;

/** What the engine recorded about one finished run: its status, its own start/completion times, its log size. */
public record RunTiming(String runId, String status, Instant startTime, Instant completionTime, int logEntries) {

    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }

    /** Engine-side latency from start_time to completion_time, in milliseconds. */
    public double latencyMillis() {
        return Duration.between(startTime, completionTime).toNanos() / 1e6;
    }
}
