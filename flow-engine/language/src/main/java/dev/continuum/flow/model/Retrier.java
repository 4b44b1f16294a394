package dev.continuum.flow.model;

import java.util.List;
import java.util.Optional;

/**
 * One entry of a state's {@code Retry} list: which errors it retries and how long it waits.
 * Delay before retry n (1-based) = IntervalSeconds * BackoffRate^(n-1), capped by MaxDelaySeconds,
 * then jittered when {@link JitterStrategy#FULL}.
 */
public record Retrier(List<String> errorEquals, double intervalSeconds, int maxAttempts, double backoffRate,
                      Optional<Double> maxDelaySeconds, JitterStrategy jitterStrategy) {

    public static final double DEFAULT_INTERVAL_SECONDS = 1.0;
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final double DEFAULT_BACKOFF_RATE = 2.0;

    public Retrier {
        errorEquals = List.copyOf(errorEquals);
    }

    public enum JitterStrategy { FULL, NONE }
}
