package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.SchedulingContext;

/**
 * A scheduling policy: given the cluster, the queue and the time (all in the
 * {@link SchedulingContext}), decide which jobs start, stop, move or resize. Pure Java with no
 * framework types, so the simulator and the online planner run the same classes.
 */
public interface Policy {
    String name();

    /** Orders the waiting queue. */
    JobOrder order();

    /** Whether partitions may lend idle quota (reclaimed by preemption). */
    boolean lending();

    void schedule(SchedulingContext ctx);

    /** When the policy wants to look again at a running job (e.g. a Tiresias demotion). */
    default double nextReconsideration(ActiveJob running, double now) {
        return order().nextKeyChange(running, now);
    }

    /**
     * When the policy wants a round even if nothing happens (e.g. a deferred preemption), or
     * +infinity. Asked after every round.
     */
    default double wakeUpAt(double now) {
        return Double.POSITIVE_INFINITY;
    }

    default void onArrival(Job job) {
        order().onArrival(job);
    }

    default void onCompletion(ActiveJob job, double now) {
        order().onCompletion(job, now);
    }
}
