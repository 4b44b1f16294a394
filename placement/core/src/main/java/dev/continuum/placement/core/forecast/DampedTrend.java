package dev.continuum.placement.core.forecast;

/**
 * Holt's linear method with a damped trend (no season): follows a rate that climbs or falls over minutes without
 * extrapolating the climb forever.
 */
final class DampedTrend implements Method {
    private static final double ALPHA = 0.5;
    private static final double BETA = 0.1;
    private static final double PHI = 0.9;
    private double level;
    private double trend;
    private long seen;

    @Override
    public String name() {
        return "damped-trend";
    }

    @Override
    public void observe(double count) {
        seen++;
        if (seen == 1) {
            level = count;
            return;
        }
        double previous = level;
        level = ALPHA * count + (1 - ALPHA) * (level + PHI * trend);
        trend = BETA * (level - previous) + (1 - BETA) * PHI * trend;
    }

    @Override
    public boolean ready() {
        return seen >= 3;
    }

    @Override
    public double forecast(int h) {
        double damped = 0;
        double factor = 1;
        for (int i = 1; i <= h; i++) {
            factor *= PHI;
            damped += factor;
        }
        return Math.max(0, level + damped * trend);
    }
}
