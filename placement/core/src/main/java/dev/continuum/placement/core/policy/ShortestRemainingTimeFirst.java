package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ActiveJob;

/** Shortest remaining time first, preemptive: the clairvoyant lower bound on mean JCT. */
public final class ShortestRemainingTimeFirst implements JobOrder {
    @Override public String name() { return "srtf"; }
    @Override public boolean preemptive() { return true; }
    @Override public double of(ActiveJob job, double now) { return job.remainingAt(now); }
}
