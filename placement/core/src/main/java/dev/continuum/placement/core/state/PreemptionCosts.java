package dev.continuum.placement.core.state;

/**
 * Cost of stopping and moving jobs (Singularity/AnalySIM): a preempted job loses
 * {@code checkpointSeconds} of progress and, when restarted, makes no progress for
 * {@code restoreSeconds}; a migrated job pauses {@code migrationSeconds}.
 */
public record PreemptionCosts(double checkpointSeconds, double restoreSeconds, double migrationSeconds) {
    public static final PreemptionCosts DEFAULT = new PreemptionCosts(30, 60, 90);
    public static final PreemptionCosts FREE = new PreemptionCosts(0, 0, 0);

    public PreemptionCosts {
        if (checkpointSeconds < 0 || restoreSeconds < 0 || migrationSeconds < 0) {
            throw new IllegalArgumentException("costs must be >= 0");
        }
    }
}
