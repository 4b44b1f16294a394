package dev.continuum.placement.core.planner;

/**
 * A job the planner had decided about before it restarted and that has not finished, as the decision log kept it:
 * the request, when it arrived, and the latest decision about it (placed, moved, queued or preempted).
 */
public record Restored(PlacementRequest request, long arrivalMillis, PlacementDecision last) {
    public Restored {
        if (request == null || last == null) {
            throw new IllegalArgumentException("a restored job needs its request and its latest decision");
        }
    }
}
