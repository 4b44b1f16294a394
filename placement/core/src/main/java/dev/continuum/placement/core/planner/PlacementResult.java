package dev.continuum.placement.core.planner;

import java.util.List;

/**
 * What placing one request decided: the request's own decision and what the same policy round decided about other
 * jobs (queued jobs that start, running jobs preempted or moved), in the order to carry them out — a job preempted
 * to make room comes before the job that takes its GPUs.
 */
public record PlacementResult(String requestId, List<PlacementDecision> decisions) {
    public PlacementResult {
        decisions = List.copyOf(decisions);
        if (decisions.stream().noneMatch(d -> d.requestId().equals(requestId))) {
            throw new IllegalArgumentException("no decision for request " + requestId);
        }
    }

    public static PlacementResult of(PlacementDecision decision) {
        return new PlacementResult(decision.requestId(), List.of(decision));
    }

    /** The request's own decision: placed, queued or unplaceable. */
    public PlacementDecision decision() {
        return decisions.stream().filter(d -> d.requestId().equals(requestId)).findFirst().orElseThrow();
    }

    /** Decisions about other jobs. */
    public List<PlacementDecision> others() {
        return decisions.stream().filter(d -> !d.requestId().equals(requestId)).toList();
    }
}
