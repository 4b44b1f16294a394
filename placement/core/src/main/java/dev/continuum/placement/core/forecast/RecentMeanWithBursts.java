package dev.continuum.placement.core.forecast;

/**
 * The mean of the last half hour, unless the last few buckets stand well above it (a burst: more than three
 * standard deviations and one arrival per bucket over the baseline before them); then the burst's rate, decaying
 * back to the baseline with each bucket ahead — short spikes are expected to last a little, not for ever.
 */
final class RecentMeanWithBursts implements Method {
    static final int BASELINE = 30;
    static final int RECENT = 3;
    private static final double DECAY = 0.85;
    private final History history;

    RecentMeanWithBursts(History history) {
        this.history = history;
    }

    @Override
    public String name() {
        return "recent-mean";
    }

    @Override
    public void observe(double count) {
        // reads the shared history
    }

    @Override
    public boolean ready() {
        return history.size() >= 1;
    }

    /** Whether the last buckets are a burst over the ones before them. */
    boolean inBurst() {
        if (history.size() < BASELINE + RECENT) {
            return false;
        }
        double[] baseline = history.meanAndDeviation(RECENT, BASELINE);
        double recent = history.meanAndDeviation(0, RECENT)[0];
        return recent > baseline[0] + 3 * baseline[1] + 1;
    }

    @Override
    public double forecast(int h) {
        if (inBurst()) {
            double baseline = history.meanAndDeviation(RECENT, BASELINE)[0];
            double recent = history.meanAndDeviation(0, RECENT)[0];
            return baseline + (recent - baseline) * Math.pow(DECAY, h - 1);
        }
        return history.meanAndDeviation(0, BASELINE)[0];
    }
}
