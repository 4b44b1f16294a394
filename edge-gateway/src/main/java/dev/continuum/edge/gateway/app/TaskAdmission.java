package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether a task message that arrived becomes work: a malformed one is dropped; a new task id is spooled
 * (and the cloud told it is queued when others are ahead); a task id seen before is not run again — its
 * known result is sent again, or it is said to be queued still; a task the spool cannot take (full) is
 * refused with a FAILED result. The message is acknowledged as {@link TaskAcks} decides; a task that could
 * not be written is not acknowledged, so the broker delivers it again.
 */
final class TaskAdmission {

    private static final Logger LOG = Logger.getLogger(TaskAdmission.class.getName());

    private final String deviceId;
    private final boolean syncOnAdmit;
    private final TaskSpool spool;
    private final TaskAcks acks;
    private final ResultOutbox outbox;
    private final Uplink uplink;
    private final TaskTimings timings;

    TaskAdmission(GatewayConfig config, TaskSpool spool, TaskAcks acks, ResultOutbox outbox, Uplink uplink,
                  TaskTimings timings) {
        this.deviceId = config.deviceId();
        this.syncOnAdmit = config.durability() == GatewayConfig.Durability.DISK;
        this.spool = spool;
        this.acks = acks;
        this.outbox = outbox;
        this.uplink = uplink;
        this.timings = timings;
    }

    /** A task message that reached the MQTT event loop at {@code arrived} (nanoTime); runs on the intake thread. */
    void admit(MqttLink.Incoming message, long arrived) {
        long start = System.nanoTime();
        timings.record(StageTimes.Stage.HANDOFF, start - arrived);
        TaskMessage task;
        try {
            task = Wire.decode(message.payload(), TaskMessage.class);
            if (task.taskId() == null || task.taskId().isBlank() || task.model() == null) {
                throw new IllegalArgumentException("task without task_id or model");
            }
        } catch (RuntimeException e) {
            LOG.warning(() -> "dropping malformed task: " + e.getMessage());
            message.ack();
            return;
        }
        long decoded = System.nanoTime();
        timings.record(StageTimes.Stage.DECODE, decoded - start);
        boolean first = timings.admitted(task.taskId(), arrived, decoded);
        TaskSpool.Admission admission;
        try {
            admission = syncOnAdmit ? spool.admit(task, message.payload()) : spool.admitBuffered(task, message.payload());
        } catch (RuntimeException e) {
            // could not persist: do not ack, so the broker redelivers it later
            LOG.log(Level.WARNING, "cannot spool task " + task.taskId(), e);
            timings.notSpooled(task.taskId(), first);
            return;
        }
        timings.record(StageTimes.Stage.SPOOL, System.nanoTime() - decoded);
        switch (admission) {
            case TaskSpool.Accepted a -> {
                acks.accountFor(task.taskId(), message, a.mark());
                if (a.position() > 0) { // with nothing ahead it starts at once: no message but its result, if quick
                    queued(task.taskId(), a.position());
                }
            }
            case TaskSpool.Duplicate d -> {
                timings.notQueued(task.taskId(), first);
                acks.accountFor(task.taskId(), message, d.mark());
                d.result().ifPresentOrElse(outbox::send, () -> queued(task.taskId(), 0));
            }
            case TaskSpool.Rejected r -> {
                timings.notQueued(task.taskId(), first);
                message.ack();
                outbox.send(ResultMessage.failed(task.taskId(), deviceId, r.reason()));
            }
        }
    }

    /** Best-effort news that the gateway holds the task, with {@code position} tasks ahead of it. */
    private void queued(String taskId, int position) {
        uplink.progress(new ProgressMessage(taskId, deviceId, "queued", position));
    }
}
