package dev.continuum.placement.core.state;

/** A job's place in the queue: lower runs first; ties go to the earlier arrival. */
@FunctionalInterface
public interface QueueKey {
    double of(ActiveJob job, double now);
}
