package dev.continuum.placement.core.planner;

/** Predicted latency of a placement, split so a user can see which part dominates. */
public record LatencyEstimate(long transferMillis, long queueMillis, long computeMillis) {
    public static final LatencyEstimate NONE = new LatencyEstimate(0, 0, 0);

    public long totalMillis() {
        return transferMillis + queueMillis + computeMillis;
    }
}
