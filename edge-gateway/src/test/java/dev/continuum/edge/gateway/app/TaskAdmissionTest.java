package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task message arriving at the gateway, on a real spool: what becomes work, what is answered, what the broker may forget. */
class TaskAdmissionTest {

    @TempDir
    Path dir;

    private final RecordingUplink uplink = new RecordingUplink().acknowledgingAtOnce();
    private TaskSpool spool;
    private ResultOutbox outbox;

    private TaskAdmission admission(GatewayConfig.Durability durability, TaskSpool.Limits limits) {
        GatewayConfig config = GatewayConfig.of("gw-1", "127.0.0.1", 1883, dir, "bootstrap").withDurability(durability);
        spool = TaskSpool.open(dir.resolve("spool"), limits, Clock.systemUTC());
        TaskAcks acks = new TaskAcks(spool);
        TaskTimings timings = new TaskTimings(new StageTimes());
        outbox = new ResultOutbox(durability, spool, uplink, () -> "device-credential", acks, timings,
                Runnable::run, Clock.systemUTC());
        return new TaskAdmission(config, spool, acks, outbox, uplink, timings);
    }

    private TaskAdmission admission() {
        return admission(GatewayConfig.Durability.BROKER, TaskSpool.Limits.defaults().withFsync(false));
    }

    private static TaskMessage task(String id) {
        return new TaskMessage(id, "cls", Tensor.of(new long[] {1, 4}, new float[] {1, 2, 3, 4}), null, null, null);
    }

    private static ResultMessage succeeded(String id, float value) {
        return new ResultMessage(id, "gw-1", null, ResultMessage.SUCCEEDED, Tensor.of(new long[] {1}, new float[] {value}),
                null, "sha256:m", 1, 0, 0);
    }

    @Test
    void shouldRefuseATaskWithAFailedResultWhenTheSpoolIsFull() {
        long oneTask = Wire.encode(task("t-1")).length;
        TaskAdmission admission = admission(GatewayConfig.Durability.BROKER,
                TaskSpool.Limits.defaults().withFsync(false).withMaxBytes(oneTask + oneTask / 2));
        DeliveredTask second = DeliveredTask.of(task("t-2"));

        admission.admit(DeliveredTask.of(task("t-1")), System.nanoTime());
        admission.admit(second, System.nanoTime());

        assertThat(spool.head(10)).extracting(s -> s.task().taskId()).containsExactly("t-1");
        assertThat(uplink.results).singleElement().satisfies(r -> {
            assertThat(r.taskId()).isEqualTo("t-2");
            assertThat(r.succeeded()).isFalse();
            assertThat(r.error()).contains("spool full");
        });
        assertThat(second.acknowledged()).as("the refusal is the answer: the broker need not keep the task").isTrue();
    }

    @Test
    void shouldAnswerARepeatedTaskIdWithItsKnownResultInsteadOfQueueingItAgain() {
        TaskAdmission admission = admission();
        admission.admit(DeliveredTask.of(task("t-1")), System.nanoTime());
        outbox.finish(succeeded("t-1", 7));

        DeliveredTask repeat = DeliveredTask.of(task("t-1"));
        admission.admit(repeat, System.nanoTime());

        assertThat(spool.queued()).isZero();
        assertThat(uplink.results).extracting(ResultMessage::taskId).containsExactly("t-1", "t-1");
        assertThat(uplink.results.get(1).output().values()).containsExactly(7f);
        assertThat(repeat.acknowledged()).isTrue();
    }

    @Test
    void shouldSayARepeatedTaskIsStillQueuedWhileTheFirstWaits() {
        TaskAdmission admission = admission();

        admission.admit(DeliveredTask.of(task("t-1")), System.nanoTime());
        admission.admit(DeliveredTask.of(task("t-1")), System.nanoTime());

        assertThat(spool.queued()).isEqualTo(1);
        assertThat(uplink.progress).containsExactly(new ProgressMessage("t-1", "gw-1", "queued", 0));
        assertThat(uplink.results).isEmpty();
    }

    @Test
    void shouldTellTheCloudHowManyTasksAreAheadOnlyWhenSomeAre() {
        TaskAdmission admission = admission();

        admission.admit(DeliveredTask.of(task("t-1")), System.nanoTime());
        admission.admit(DeliveredTask.of(task("t-2")), System.nanoTime());
        admission.admit(DeliveredTask.of(task("t-3")), System.nanoTime());

        assertThat(uplink.progress).containsExactly(new ProgressMessage("t-2", "gw-1", "queued", 1),
                new ProgressMessage("t-3", "gw-1", "queued", 2));
    }

    @Test
    void shouldDropAMalformedTaskAndLetTheBrokerForgetIt() {
        TaskAdmission admission = admission();
        DeliveredTask noId = DeliveredTask.of(new TaskMessage(null, "cls", null, null, null, null));
        DeliveredTask garbage = new DeliveredTask("not a task".getBytes(StandardCharsets.UTF_8));

        admission.admit(noId, System.nanoTime());
        admission.admit(garbage, System.nanoTime());

        assertThat(spool.queued()).isZero();
        assertThat(uplink.results).isEmpty();
        assertThat(noId.acknowledged()).isTrue();
        assertThat(garbage.acknowledged()).isTrue();
    }

    @Test
    void shouldHoldTheAcknowledgementUntilTheTaskResultReachesTheBroker() {
        RecordingUplink slowBroker = new RecordingUplink();
        GatewayConfig config = GatewayConfig.of("gw-1", "127.0.0.1", 1883, dir, "bootstrap");
        spool = TaskSpool.open(dir.resolve("spool"), TaskSpool.Limits.defaults(), Clock.systemUTC());
        TaskAcks acks = new TaskAcks(spool);
        TaskTimings timings = new TaskTimings(new StageTimes());
        outbox = new ResultOutbox(GatewayConfig.Durability.BROKER, spool, slowBroker, () -> "c", acks, timings, Runnable::run,
                Clock.systemUTC());
        TaskAdmission admission = new TaskAdmission(config, spool, acks, outbox, slowBroker, timings);
        DeliveredTask delivered = DeliveredTask.of(task("t-1"));

        admission.admit(delivered, System.nanoTime());
        boolean heldWhileQueued = !delivered.acknowledged();
        outbox.finish(succeeded("t-1", 1));
        boolean heldWhilePublishing = !delivered.acknowledged();
        slowBroker.puback();

        assertThat(heldWhileQueued).as("not on disk yet: the broker keeps the task").isTrue();
        assertThat(heldWhilePublishing).isTrue();
        assertThat(delivered.acknowledged()).as("its result is at the broker").isTrue();
    }

    @Test
    void shouldAcknowledgeATaskAsSoonAsItIsOnDiskWhenDurabilityIsDisk() {
        TaskAdmission admission = admission(GatewayConfig.Durability.DISK, TaskSpool.Limits.defaults());
        DeliveredTask delivered = DeliveredTask.of(task("t-1"));

        admission.admit(delivered, System.nanoTime());

        assertThat(delivered.acknowledged()).isTrue();
        assertThat(TaskSpool.open(dir.resolve("spool"), TaskSpool.Limits.defaults(), Clock.systemUTC()).queued())
                .as("a restarted gateway finds it").isEqualTo(1);
    }

    @Test
    void shouldReleaseEveryHeldAcknowledgementWithOneSyncOnceTooManyAreHeld() {
        TaskAdmission admission = admission(GatewayConfig.Durability.BROKER, TaskSpool.Limits.defaults());
        List<DeliveredTask> burst = new ArrayList<>();

        for (int i = 0; i <= TaskAcks.MAX_HELD; i++) {
            burst.add(DeliveredTask.of(task("t-" + i)));
            admission.admit(burst.get(i), System.nanoTime());
        }

        assertThat(burst).as("the broker's in-flight window opens again").allMatch(DeliveredTask::acknowledged);
        assertThat(TaskSpool.open(dir.resolve("spool"), TaskSpool.Limits.defaults(), Clock.systemUTC()).queued())
                .isEqualTo(TaskAcks.MAX_HELD + 1);
    }
}
