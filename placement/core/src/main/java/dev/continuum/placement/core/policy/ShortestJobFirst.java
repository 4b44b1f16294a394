package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ActiveJob;

/** Shortest (known) duration first, not preemptive: the clairvoyant reference. */
public final class ShortestJobFirst implements JobOrder {
    @Override public String name() { return "sjf"; }
    @Override public boolean preemptive() { return false; }
    @Override public double of(ActiveJob job, double now) { return job.job().duration(); }
}
