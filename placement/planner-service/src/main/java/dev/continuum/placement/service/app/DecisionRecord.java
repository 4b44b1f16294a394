package dev.continuum.placement.service.app;

import dev.continuum.placement.api.DecisionTypes;
import dev.continuum.placement.core.planner.PlacementDecision;
import java.time.Instant;

/**
 * One entry of the decision log: what was decided about a job, when and why it was decided then ({@link Cause}).
 * {@code seq} orders the log (and pages it); {@code site} is the chosen or queueing site, null when there is none.
 */
public record DecisionRecord(long seq, String requestId, String runId, String kind, Instant at, Cause cause,
                             PlacementDecision decision) {

    /**
     * What made the planner decide: a new request, a change in the inventory, a job finishing, or a restart (the
     * jobs taken back from the log, e.g. a queued one starting or one whose site is gone), or time passing (a
     * green window opening, a LAS demotion); or a provider that places its jobs itself reported it (the training
     * provider's in-process planner).
     */
    public enum Cause { REQUEST, INVENTORY, COMPLETION, RESTART, TIME, REPORTED }

    public String status() {
        return statusOf(decision);
    }

    public String site() {
        return siteOf(decision);
    }

    public static String statusOf(PlacementDecision d) {
        return switch (d) {
            case PlacementDecision.Placed p -> DecisionTypes.PLACED;
            case PlacementDecision.Queued q -> DecisionTypes.QUEUED;
            case PlacementDecision.Unplaceable u -> DecisionTypes.UNPLACEABLE;
            case PlacementDecision.Preempted p -> DecisionTypes.PREEMPTED;
            case PlacementDecision.Moved m -> DecisionTypes.MOVED;
        };
    }

    public static String siteOf(PlacementDecision d) {
        return switch (d) {
            case PlacementDecision.Placed p -> p.chosen().site();
            case PlacementDecision.Queued q -> q.site();
            case PlacementDecision.Unplaceable u -> null;
            case PlacementDecision.Preempted p -> p.site();
            case PlacementDecision.Moved m -> m.to().site();
        };
    }
}
