package dev.continuum.provider.training.core;

import dev.continuum.placement.core.planner.PlacementDecision;
import java.time.Instant;

/**
 * Told about every decision the provider's in-process planner makes (placed, queued, preempted, moved, unplaceable),
 * on the scheduler's thread and in order: the provider reports them to the planner service's decision log. Must not
 * block — the scheduler waits for it.
 */
@FunctionalInterface
public interface DecisionListener {
    DecisionListener NONE = (decision, at) -> { };

    void decided(PlacementDecision decision, Instant at);
}
