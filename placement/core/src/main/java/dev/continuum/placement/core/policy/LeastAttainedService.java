package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ActiveJob;

import java.util.Arrays;

/**
 * Tiresias' discretized two-dimensional LAS: a job's attained service is GPUs x time run so far
 * (no knowledge of duration). Jobs sit in priority levels split at {@code thresholds}
 * (GPU-seconds); inside a level, first come first served. A running job that crosses a threshold
 * is demoted and may be preempted by a waiting job of a higher level.
 */
public final class LeastAttainedService implements JobOrder {
    /** Tiresias' default: two levels split at one GPU-hour, a third after ten. */
    public static final double[] DEFAULT_THRESHOLDS = {3_600, 36_000};
    private static final double LEVEL_WEIGHT = 1e12;
    private final double[] thresholds;

    public LeastAttainedService() {
        this(DEFAULT_THRESHOLDS);
    }

    public LeastAttainedService(double[] thresholds) {
        this.thresholds = thresholds.clone();
        Arrays.sort(this.thresholds);
    }

    @Override public String name() { return "las"; }
    @Override public boolean preemptive() { return true; }

    public int level(double attainedGpuSeconds) {
        int level = 0;
        while (level < thresholds.length && attainedGpuSeconds >= thresholds[level]) {
            level++;
        }
        return level;
    }

    @Override
    public double of(ActiveJob job, double now) {
        return level(job.attainedAt(now)) * LEVEL_WEIGHT + job.job().arrival();
    }

    @Override
    public double nextKeyChange(ActiveJob running, double now) {
        double attained = running.attainedAt(now);
        int level = level(attained);
        if (level >= thresholds.length || running.allocatedGpus() == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double wait = (thresholds[level] - attained) / running.allocatedGpus();
        return now + pausedFor(running, now) + Math.max(wait, 1e-6);
    }

    private static double pausedFor(ActiveJob running, double now) {
        // a job still restoring gains no service; remaining/expectedFinish tells how long it waits
        double finishIfNoPause = now + running.remainingAt(now) / running.rate();
        return Math.max(0, running.expectedFinish() - finishIfNoPause);
    }
}
