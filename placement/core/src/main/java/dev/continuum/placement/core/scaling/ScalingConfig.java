package dev.continuum.placement.core.scaling;

/**
 * One pool's scaling settings, shared by every policy so that they are compared on equal terms: the wait SLO (a
 * request meets it when it starts being served within {@code sloMillis} of arriving) and the share of requests
 * that should ({@code sloTarget}); the cold start a new worker pays before it serves; the tick interval (HPA's
 * sync period); the warm minimum and the maximum; HPA's target utilisation, tolerance and scale-down stabilisation
 * window; and how long the predictive policy waits before acting on a lower count ({@code scaleDownHoldMillis}).
 */
public record ScalingConfig(long sloMillis, double sloTarget, long coldStartMillis, long intervalMillis,
                            int warmMinimum, int maxWorkers, double hpaTargetUtilisation, double hpaTolerance,
                            long stabilisationMillis, long scaleDownHoldMillis) {
    public ScalingConfig {
        if (sloMillis < 0 || !(sloTarget > 0 && sloTarget < 1)) {
            throw new IllegalArgumentException("sloMillis must be >= 0 and sloTarget in (0, 1), were "
                    + sloMillis + ", " + sloTarget);
        }
        if (coldStartMillis < 0 || intervalMillis <= 0) {
            throw new IllegalArgumentException("coldStartMillis must be >= 0 and intervalMillis > 0, were "
                    + coldStartMillis + ", " + intervalMillis);
        }
        if (warmMinimum < 0 || maxWorkers < Math.max(1, warmMinimum)) {
            throw new IllegalArgumentException("warmMinimum must be >= 0 and maxWorkers >= max(1, warmMinimum), were "
                    + warmMinimum + ", " + maxWorkers);
        }
        if (!(hpaTargetUtilisation > 0 && hpaTargetUtilisation <= 1) || hpaTolerance < 0) {
            throw new IllegalArgumentException("hpaTargetUtilisation must be in (0, 1] and hpaTolerance >= 0, were "
                    + hpaTargetUtilisation + ", " + hpaTolerance);
        }
        if (stabilisationMillis < 0 || scaleDownHoldMillis < 0) {
            throw new IllegalArgumentException("stabilisationMillis and scaleDownHoldMillis must be >= 0, were "
                    + stabilisationMillis + ", " + scaleDownHoldMillis);
        }
    }

    /**
     * A 2 s wait SLO for 95 % of requests, a 60 s cold start, HPA's defaults (15 s sync, 10 % tolerance, 300 s
     * scale-down stabilisation) with a 70 % target, one warm worker, at most 1,000; the predictive policy holds a
     * lower count for two minutes before acting on it (one setting for every trace in docs/placement.md "Scaling").
     */
    public static ScalingConfig defaults() {
        return new ScalingConfig(2_000, 0.95, 60_000, 15_000, 1, 1_000, 0.7, 0.1, 300_000, 120_000);
    }

    public ScalingConfig withSlo(long millis, double target) {
        return new ScalingConfig(millis, target, coldStartMillis, intervalMillis, warmMinimum, maxWorkers,
                hpaTargetUtilisation, hpaTolerance, stabilisationMillis, scaleDownHoldMillis);
    }

    public ScalingConfig withColdStart(long millis) {
        return new ScalingConfig(sloMillis, sloTarget, millis, intervalMillis, warmMinimum, maxWorkers,
                hpaTargetUtilisation, hpaTolerance, stabilisationMillis, scaleDownHoldMillis);
    }

    public ScalingConfig withWarmMinimum(int workers) {
        return new ScalingConfig(sloMillis, sloTarget, coldStartMillis, intervalMillis, workers, maxWorkers,
                hpaTargetUtilisation, hpaTolerance, stabilisationMillis, scaleDownHoldMillis);
    }

    public ScalingConfig withHpaTarget(double utilisation) {
        return new ScalingConfig(sloMillis, sloTarget, coldStartMillis, intervalMillis, warmMinimum, maxWorkers,
                utilisation, hpaTolerance, stabilisationMillis, scaleDownHoldMillis);
    }

    public ScalingConfig withScaleDownHold(long millis) {
        return new ScalingConfig(sloMillis, sloTarget, coldStartMillis, intervalMillis, warmMinimum, maxWorkers,
                hpaTargetUtilisation, hpaTolerance, stabilisationMillis, millis);
    }

    /** Worker-seconds per hour at {@code workers}: what a decision costs while it stands. */
    double perHour(int workers) {
        return workers * 3600.0;
    }
}
