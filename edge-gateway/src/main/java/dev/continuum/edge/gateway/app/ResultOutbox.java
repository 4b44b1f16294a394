package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Results on their way to the cloud. Each is recorded in the spool, published signed with the device
 * credential when the link is up, and leaves the outbox only on the broker's PUBACK — which also releases
 * the task's held acknowledgement. One not sent now (link down, no credential yet, publish failed) is on
 * disk and goes out with the next {@link #flush()}; one publish at a time per task, so a result is not
 * sent twice at once — unless its PUBACK is {@link #RESEND_AFTER overdue}: then the next flush publishes it again.
 * Results leave in the order their tasks finished: while an older one waits on disk (not sent, or its publish
 * failed), a new one goes out only after it — else a link that drops and comes back mid-stream lets the worker's
 * next result overtake the one the drop failed.
 */
final class ResultOutbox {

    /**
     * How long a publish may wait for its PUBACK before the next flush sends the result again (the cloud ignores a
     * repeat). A broker may drop a PUBACK and wait for a re-send: Moquette, the embedded broker of {@code up}, drops
     * any packet it writes while a connection's output buffer is full — which its own 5 s re-sends of the tasks whose
     * acknowledgements the gateway holds cause after a reconnect — and MQTT 3.1.1 has a client re-send only at the
     * next connect. 5 s is Moquette's own re-send interval; results are small, so a healthy link acknowledges them in
     * far less even when slow.
     */
    static final Duration RESEND_AFTER = Duration.ofSeconds(5);

    /** One publish of a result, awaiting its PUBACK since {@code sentAtMillis}. */
    private record Attempt(long sentAtMillis) {}

    private final boolean syncBeforePublish;
    private final TaskSpool spool;
    private final Uplink uplink;
    private final Supplier<String> credential;
    private final TaskAcks acks;
    private final TaskTimings timings;
    private final Executor diskWork;
    private final Runnable syncAndRelease;
    private final Clock clock;
    private final Map<String, Attempt> sending = new ConcurrentHashMap<>();
    /** A result was not sent or its publish failed: it waits on disk and goes before any newer one. */
    private volatile boolean olderWaiting;

    /**
     * {@code credential}: the device credential, null while there is none; {@code diskWork} runs a sync off the
     * MQTT event loop (where a failed publish is reported); {@code clock} times the wait for each PUBACK.
     */
    ResultOutbox(GatewayConfig.Durability durability, TaskSpool spool, Uplink uplink, Supplier<String> credential,
                 TaskAcks acks, TaskTimings timings, Executor diskWork, Clock clock) {
        this.syncBeforePublish = durability == GatewayConfig.Durability.DISK;
        this.spool = spool;
        this.uplink = uplink;
        this.credential = credential;
        this.acks = acks;
        this.timings = timings;
        this.diskWork = diskWork;
        this.syncAndRelease = acks::syncAndRelease;
        this.clock = clock;
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
        if (olderWaiting) {
            flush();
        }
        if (!send(result) && !syncBeforePublish) {
            spool.sync(); // not sent now: on disk until it can be
        }
        long published = System.nanoTime();
        timings.record(StageTimes.Stage.PUBLISH, published - durable);
        timings.handedOver(result.taskId(), published, result.inferenceMs());
    }

    /**
     * Publishes a result unless the link is down, there is no credential yet, or it is on its way already and its
     * PUBACK is not overdue.
     */
    synchronized boolean send(ResultMessage result) { // one thread's publishes keep their order on the wire
        String cred = credential.get();
        if (cred == null || !uplink.connected()) {
            olderWaiting = true;
            return false;
        }
        long now = clock.millis();
        Attempt mine = new Attempt(now);
        Attempt current = sending.merge(result.taskId(), mine,
                (earlier, fresh) -> now - earlier.sentAtMillis() >= RESEND_AFTER.toMillis() ? fresh : earlier);
        if (current != mine) {
            return false;
        }
        uplink.result(result.signedWith(cred)).whenComplete((ok, error) -> {
            sending.remove(result.taskId(), mine);
            if (error == null) {
                spool.delivered(result.taskId());
                acks.resultDelivered(result.taskId());
            } else {
                olderWaiting = true;
                diskWork.execute(syncAndRelease);
            }
        });
        return true;
    }

    /** Sends every result on disk that the broker has not acknowledged yet (and is not awaiting it), oldest first. */
    synchronized void flush() {
        if (credential.get() == null || !uplink.connected()) {
            olderWaiting = true; // nothing can go: not worth listing the spool (a day offline holds thousands)
            return;
        }
        olderWaiting = false; // a send below that cannot go sets it again
        for (ResultMessage r : spool.undelivered()) {
            send(r);
        }
    }

    int undelivered() {
        return spool.undelivered().size();
    }
}
