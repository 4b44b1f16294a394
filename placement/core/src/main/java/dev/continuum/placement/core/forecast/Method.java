package dev.continuum.placement.core.forecast;

/**
 * A forecasting method for one series, fed one bucket's count at a time. Each is a well-known method that needs no
 * training service; {@link SeriesForecaster} runs them side by side and reports the one with the lowest recent
 * error per horizon.
 */
sealed interface Method permits SeasonalNaive, HoltWinters, DampedTrend, RecentMeanWithBursts {
    /** Short name shown in metrics and explanations. */
    String name();

    void observe(double count);

    /** Whether it has seen enough buckets to forecast. */
    boolean ready();

    /** The count expected {@code h} buckets after the last observed one (h ≥ 1), never negative. */
    double forecast(int h);
}
