package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * When a task message is acknowledged to the broker (ADR 0009): at once when the spool record that accounts
 * for it is on disk; else the acknowledgement is held — the broker's persistent session keeps the task — until
 * the task's result reaches the broker, or a sync puts the record on disk. Too many held: one sync releases
 * them all, so the broker's in-flight window stays open under a burst.
 */
final class TaskAcks {

    private static final Logger LOG = Logger.getLogger(TaskAcks.class.getName());

    /** Held acknowledgements beyond which one sync releases them all (Mosquitto's in-flight window: 20 per client). */
    static final int MAX_HELD = 8;

    private final TaskSpool spool;
    private final HeldAcks held = new HeldAcks();

    TaskAcks(TaskSpool spool) {
        this.spool = spool;
    }

    /** Acknowledges {@code message} now if {@code mark} is durable, else holds it. */
    void accountFor(String taskId, MqttLink.Incoming message, long mark) {
        if (spool.durable(mark)) {
            message.ack();
            return;
        }
        if (held.hold(taskId, message, mark) > MAX_HELD) {
            syncAndRelease();
        }
    }

    /** The task's result is at the broker: every delivery of the task may go. */
    void resultDelivered(String taskId) {
        held.release(taskId);
    }

    /** Everything in hand to disk, then acknowledged (disk work: never on the MQTT event loop). */
    void syncAndRelease() {
        try {
            spool.sync();
            held.releaseDurable(spool::durable);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot sync the spool", e);
        }
    }

    /** The connection the held messages came on is gone: they cannot be acknowledged, the broker redelivers them. */
    void linkLost() {
        held.forget();
    }

    int held() {
        return held.size();
    }
}
