package dev.continuum.placement.api;

/**
 * The type names of the planner's decisions: {@code type} of a decision's JSON and {@code status} of the decision
 * log ({@code GET /placements?status=}). The trace codec names the core's decisions with them.
 */
public final class DecisionTypes {
    public static final String PLACED = "placed";
    public static final String QUEUED = "queued";
    public static final String UNPLACEABLE = "unplaceable";
    public static final String PREEMPTED = "preempted";
    public static final String MOVED = "moved";

    private DecisionTypes() {}
}
