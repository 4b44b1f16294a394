package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a policy sees and may do in one scheduling round at time {@link #now()}. Each call that
 * changes something is recorded as a {@link Decision} and is visible at once in
 * {@link #cluster()}, so later choices in the same round see earlier ones. The simulator backs it
 * with live state; a planner backs it with a copy and reads {@link #decisions()}.
 */
public interface SchedulingContext {
    double now();

    ClusterView cluster();

    /** Up to {@code limit} waiting jobs from the head of the queue, in the policy's order. */
    List<ActiveJob> waiting(int limit);

    /**
     * Up to {@code limit} waiting jobs that come after {@code last} in the queue (by
     * {@link ActiveJob#queueKey()}, then {@link ActiveJob#seq()}, the queue's order), whether or
     * not {@code last} still waits: lets a round continue past its first {@link #waiting(int)}.
     */
    default List<ActiveJob> waitingAfter(ActiveJob last, int limit) {
        List<ActiveJob> after = new ArrayList<>();
        for (ActiveJob a : waiting(Integer.MAX_VALUE)) {
            if (after.size() >= limit) {
                break;
            }
            if (a.queueKey() > last.queueKey() || (a.queueKey() == last.queueKey() && a.seq() > last.seq())) {
                after.add(a);
            }
        }
        return after;
    }

    int waitingCount();

    Collection<ActiveJob> running();

    QuotaStatus quota(Job job, int gpus);

    /** Starts a waiting job. {@code cpuSpeed} scales its progress (Synergy-style CPU allocation). */
    void start(ActiveJob job, Placement placement, double cpuSpeed);

    void preempt(ActiveJob job, Decision.Reason reason);

    void migrate(ActiveJob job, Placement to);

    void resize(ActiveJob job, Placement to);

    List<Decision> decisions();
}
