package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.QueueKey;

/**
 * Which job goes first. {@link #of} gives a job's key (lower first) at a time; for a waiting job
 * it is computed when the job enters the queue. A preemptive order may stop a running job whose
 * current key is worse than a waiting job's.
 */
public interface JobOrder extends QueueKey {
    String name();

    boolean preemptive();

    /** When a running job's key may next change (Tiresias demotion), or +infinity. */
    default double nextKeyChange(ActiveJob running, double now) {
        return Double.POSITIVE_INFINITY;
    }

    default void onArrival(Job job) {
    }

    default void onCompletion(ActiveJob job, double now) {
    }
}
