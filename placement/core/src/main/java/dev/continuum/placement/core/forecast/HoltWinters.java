package dev.continuum.placement.core.forecast;

/**
 * Additive Holt–Winters (level, trend and a seasonal profile): for arrivals with a daily cycle. Starts after two
 * seasons of history (the first sets the level and profile, the second the trend), then updates in O(1) per bucket.
 * Fixed smoothing constants in the usual range instead of fitted ones: the selector drops it for a series it does
 * not fit.
 */
final class HoltWinters implements Method {
    private static final double ALPHA = 0.3;
    private static final double BETA = 0.02;
    private static final double GAMMA = 0.2;
    private final History history;
    private final int season;
    private final double[] profile;
    private double level;
    private double trend;
    private long seen;
    private boolean started;

    HoltWinters(History history, int season) {
        this.history = history;
        this.season = season;
        this.profile = new double[season];
    }

    @Override
    public String name() {
        return "holt-winters";
    }

    @Override
    public void observe(double count) {
        seen++;
        if (!started) {
            if (seen == 2L * season) {
                start();
            }
            return;
        }
        int slot = (int) ((seen - 1) % season);
        double seasonal = profile[slot];
        double previous = level;
        level = ALPHA * (count - seasonal) + (1 - ALPHA) * (level + trend);
        trend = BETA * (level - previous) + (1 - BETA) * trend;
        profile[slot] = GAMMA * (count - level) + (1 - GAMMA) * seasonal;
    }

    /** Level and profile from the first season, trend from the second's mean against the first's, then the second run through. */
    private void start() {
        double first = 0;
        double second = 0;
        for (int i = 0; i < season; i++) {
            first += history.ago(2 * season - 1 - i);
            second += history.ago(season - 1 - i);
        }
        first /= season;
        second /= season;
        level = first;
        trend = (second - first) / season;
        for (int i = 0; i < season; i++) {
            profile[i] = history.ago(2 * season - 1 - i) - first;
        }
        started = true;
        long end = seen;
        seen = season;
        for (int i = season - 1; i >= 0; i--) {
            observe(history.ago(i));
        }
        seen = end;
    }

    @Override
    public boolean ready() {
        return started;
    }

    @Override
    public double forecast(int h) {
        int slot = (int) ((seen + h - 1) % season);
        return Math.max(0, level + h * trend + profile[slot]);
    }
}
