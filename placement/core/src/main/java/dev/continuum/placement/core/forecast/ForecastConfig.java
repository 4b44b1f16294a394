package dev.continuum.placement.core.forecast;

import java.util.List;

/**
 * How arrivals are counted and how far ahead they are forecast. Arrivals are counted per bucket of
 * {@code bucketMillis}; {@code horizons} are in buckets (1, 5 and 15 one-minute buckets by default);
 * {@code seasonBuckets} is the daily period in buckets (the seasonal methods need two of them before they
 * forecast); {@code errorWindow} is how many scored forecasts per method and horizon rank the methods and give the
 * prediction interval; {@code coverage} is the interval's nominal coverage (0.9: the 5 % and 95 % quantiles).
 */
public record ForecastConfig(long bucketMillis, List<Integer> horizons, int seasonBuckets, int errorWindow,
                             double coverage) {
    public ForecastConfig {
        if (bucketMillis <= 0) {
            throw new IllegalArgumentException("bucketMillis must be positive, was " + bucketMillis);
        }
        horizons = List.copyOf(horizons);
        if (horizons.isEmpty() || horizons.stream().anyMatch(h -> h <= 0)) {
            throw new IllegalArgumentException("horizons must be positive bucket counts, were " + horizons);
        }
        if (seasonBuckets < 2) {
            throw new IllegalArgumentException("seasonBuckets must be at least 2, was " + seasonBuckets);
        }
        if (errorWindow < 5) {
            throw new IllegalArgumentException("errorWindow must be at least 5, was " + errorWindow);
        }
        if (!(coverage > 0 && coverage < 1)) {
            throw new IllegalArgumentException("coverage must be between 0 and 1, was " + coverage);
        }
    }

    /** One-minute buckets, 1, 5 and 15 minutes ahead, a daily season, the last 120 forecasts scored, 90 % intervals. */
    public static ForecastConfig defaults() {
        return new ForecastConfig(60_000, List.of(1, 5, 15), 24 * 60, 120, 0.9);
    }

    public int longestHorizon() {
        return horizons.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }
}
