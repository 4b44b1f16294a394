package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ActiveJob;

/**
 * Higher {@code Job.priority} first, first come first served among equals. Preemptive: a waiting
 * job stops running jobs of lower priority (the training provider's "a more important job takes
 * the GPUs"); equal priorities never preempt each other.
 */
public final class PriorityOrder implements JobOrder {
    /** Wider than any arrival time in seconds, so priority always dominates. */
    private static final double LEVEL = 1e12;

    @Override public String name() { return "priority"; }
    @Override public boolean preemptive() { return true; }
    @Override public double of(ActiveJob job, double now) { return -job.job().priority() * LEVEL + job.job().arrival(); }
}
