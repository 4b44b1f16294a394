package dev.continuum.edge.gateway.app;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-task timestamps behind {@link StageTimes} that span the gateway's parts: when a task arrived
 * (for {@code OVERHEAD}) and when it was admitted (for {@code QUEUE}), by task id, until the worker or the
 * outbox takes them.
 */
final class TaskTimings {

    private final StageTimes stages;
    private final Map<String, Long> admittedAt = new ConcurrentHashMap<>();
    private final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();

    TaskTimings(StageTimes stages) {
        this.stages = stages;
    }

    void record(StageTimes.Stage stage, long nanos) {
        stages.record(stage, nanos);
    }

    /**
     * A task was decoded at {@code decoded} after arriving at {@code arrived}; returns whether this is its
     * first arrival in hand (a redelivery while the first is still on its way keeps the first time).
     */
    boolean admitted(String taskId, long arrived, long decoded) {
        admittedAt.put(taskId, decoded);
        return arrivedAt.putIfAbsent(taskId, arrived) == null;
    }

    /** The spool could not take it: the broker redelivers it, and the next arrival is timed afresh. */
    void notSpooled(String taskId, boolean firstArrival) {
        if (firstArrival) {
            arrivedAt.remove(taskId);
        }
    }

    /** Seen before, or refused: it will not start from this arrival. */
    void notQueued(String taskId, boolean firstArrival) {
        admittedAt.remove(taskId);
        notSpooled(taskId, firstArrival);
    }

    /** The worker took the task at {@code now}. */
    void started(String taskId, long now) {
        Long admitted = admittedAt.remove(taskId);
        if (admitted != null) {
            stages.record(StageTimes.Stage.QUEUE, now - admitted);
        }
    }

    /** The task's result was handed to MQTT at {@code now}: what the gateway added besides the model's run. */
    void handedOver(String taskId, long now, double inferenceMs) {
        Long arrived = arrivedAt.remove(taskId);
        if (arrived != null) {
            stages.record(StageTimes.Stage.OVERHEAD, now - arrived - (long) (inferenceMs * 1e6));
        }
    }
}
