package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ActiveJob;

/** First come, first served. */
public final class FifoOrder implements JobOrder {
    @Override public String name() { return "fifo"; }
    @Override public boolean preemptive() { return false; }
    @Override public double of(ActiveJob job, double now) { return job.job().arrival(); }
}
