package dev.continuum.edge.app;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.store.TaskSpool;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Results on their way to the cloud. Each is recorded in the spool, published signed with the device
 * credential when the link is up, and leaves the outbox only on the broker's PUBACK — which also releases
 * the task's held acknowledgement. One not sent now (link down, no credential yet, publish failed) is on
 * disk and goes out with the next {@link #flush()}; one publish at a time per task, so a result is not
 * sent twice at once.
 */
final class ResultOutbox {

    private final boolean syncBeforePublish;
    private final TaskSpool spool;
    private final Uplink uplink;
    private final Supplier<String> credential;
    private final TaskAcks acks;
    private final TaskTimings timings;
    private final Executor diskWork;
    private final Runnable syncAndRelease;
    private final Set<String> sending = ConcurrentHashMap.newKeySet();

    /**
     * {@code credential}: the device credential, null while there is none; {@code diskWork} runs a sync off the
     * MQTT event loop (where a failed publish is reported).
     */
    ResultOutbox(GatewayConfig.Durability durability, TaskSpool spool, Uplink uplink, Supplier<String> credential,
                 TaskAcks acks, TaskTimings timings, Executor diskWork) {
        this.syncBeforePublish = durability == GatewayConfig.Durability.DISK;
        this.spool = spool;
        this.uplink = uplink;
        this.credential = credential;
        this.acks = acks;
        this.timings = timings;
        this.diskWork = diskWork;
        this.syncAndRelease = acks::syncAndRelease;
    }

    /**
     * The result of a task the worker took from the spool. DISK: on disk before it is published. BROKER:
     * published at once when the link is up (the task's held PUBACK covers a crash); when it is down, on
     * disk until it is back.
     */
    void finish(ResultMessage result) {
        long start = System.nanoTime();
        spool.finishBuffered(result.taskId(), result);
        if (syncBeforePublish) {
            spool.sync();
        }
        long durable = System.nanoTime();
        timings.record(StageTimes.Stage.RESULT, durable - start);
        if (!send(result) && !syncBeforePublish) {
            spool.sync(); // not sent now: on disk until it can be
        }
        long published = System.nanoTime();
        timings.record(StageTimes.Stage.PUBLISH, published - durable);
        timings.handedOver(result.taskId(), published, result.inferenceMs());
    }

    /** Publishes a result unless the link is down, there is no credential yet, or it is on its way already. */
    boolean send(ResultMessage result) {
        String cred = credential.get();
        if (cred == null || !uplink.connected() || !sending.add(result.taskId())) {
            return false;
        }
        uplink.result(result.signedWith(cred)).whenComplete((ok, error) -> {
            sending.remove(result.taskId());
            if (error == null) {
                spool.delivered(result.taskId());
                acks.resultDelivered(result.taskId());
            } else {
                diskWork.execute(syncAndRelease);
            }
        });
        return true;
    }

    /** Sends every result on disk that the broker has not acknowledged yet, oldest first. */
    void flush() {
        for (ResultMessage r : spool.undelivered()) {
            send(r);
        }
    }

    int undelivered() {
        return spool.undelivered().size();
    }
}
