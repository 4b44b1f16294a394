package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.testkit.VirtualClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results leaving the gateway on a real spool: kept on disk while they cannot go, delivered once when they can. */
class ResultOutboxTest {

    @TempDir
    Path dir;

    private final RecordingUplink uplink = new RecordingUplink();
    private final VirtualClock clock = new VirtualClock();
    private final AtomicReference<String> credential = new AtomicReference<>("device-credential");
    private final TaskSpool.Limits limits = TaskSpool.Limits.defaults();
    private TaskSpool spool;
    private ResultOutbox outbox;

    @BeforeEach
    void open() {
        spool = TaskSpool.open(dir, limits, Clock.systemUTC());
        outbox = new ResultOutbox(GatewayConfig.Durability.BROKER, spool, uplink, credential::get, new TaskAcks(spool),
                new TaskTimings(new StageTimes()), Runnable::run, clock);
    }

    private void taskWaiting(String id) {
        spool.admit(new TaskMessage(id, "cls", Tensor.of(new long[] {1, 1}, new float[] {1}), null, null, null));
    }

    private static ResultMessage succeeded(String id) {
        return new ResultMessage(id, "gw-1", null, ResultMessage.SUCCEEDED, Tensor.of(new long[] {1}, new float[] {3}),
                null, "sha256:m", 1, 0, 0);
    }

    @Test
    void shouldKeepAResultOnDiskWhileTheLinkIsDownAndDeliverItOnceAfterReconnect() {
        taskWaiting("t-1");
        uplink.down();

        outbox.finish(succeeded("t-1"));
        boolean keptAcrossARestart = TaskSpool.open(dir, limits, Clock.systemUTC()).undelivered().stream()
                .anyMatch(r -> r.taskId().equals("t-1"));
        uplink.up();
        outbox.flush();
        outbox.flush(); // a second flush while the first publish awaits its PUBACK
        uplink.puback();
        outbox.flush();

        assertThat(keptAcrossARestart).isTrue();
        assertThat(uplink.resultIds()).containsExactly("t-1");
        assertThat(uplink.results.getFirst().credential()).as("signed by the device").isEqualTo("device-credential");
        assertThat(outbox.undelivered()).isZero();
    }

    @Test
    void shouldPublishAResultAgainWhenTheLinkDropsBeforeTheBrokerAcknowledgesIt() {
        taskWaiting("t-1");
        outbox.finish(succeeded("t-1"));

        uplink.down();
        int afterDrop = outbox.undelivered();
        uplink.up();
        outbox.flush();
        uplink.puback();

        assertThat(afterDrop).isEqualTo(1);
        assertThat(uplink.resultIds()).containsExactly("t-1", "t-1");
        assertThat(outbox.undelivered()).isZero();
    }

    /**
     * A broker that drops a PUBACK (Moquette does while a connection's output is full) must not leave the result
     * undelivered until the link drops: once the PUBACK is overdue the next flush publishes it again, and only then.
     */
    @Test
    void shouldPublishAResultAgainWhenItsPubackIsOverdueOnALiveLink() {
        taskWaiting("t-1");
        outbox.finish(succeeded("t-1"));
        spool.sync(); // on disk, as every result is within a sync interval: what a flush sends

        clock.advance(ResultOutbox.RESEND_AFTER.minusSeconds(1));
        outbox.flush();
        int sentBeforeOverdue = uplink.results.size();
        clock.advance(Duration.ofSeconds(1));
        outbox.flush();
        outbox.flush();
        uplink.puback();
        clock.advance(ResultOutbox.RESEND_AFTER);
        outbox.flush();

        assertThat(sentBeforeOverdue).isEqualTo(1);
        assertThat(uplink.resultIds()).containsExactly("t-1", "t-1");
        assertThat(outbox.undelivered()).isZero();
    }

    @Test
    void shouldKeepResultsUntilTheDeviceHasACredential() {
        credential.set(null);
        taskWaiting("t-1");

        outbox.finish(succeeded("t-1"));
        boolean sentUnregistered = !uplink.results.isEmpty();
        credential.set("granted-later");
        outbox.flush();
        uplink.puback();

        assertThat(sentUnregistered).isFalse();
        assertThat(uplink.results).singleElement().extracting(ResultMessage::credential).isEqualTo("granted-later");
        assertThat(outbox.undelivered()).isZero();
    }

    @Test
    void shouldDeliverResultsInTheOrderTheyWereFinished() {
        uplink.down();
        for (String id : new String[] {"t-3", "t-1", "t-2"}) {
            taskWaiting(id);
            outbox.finish(succeeded(id));
        }

        uplink.up();
        outbox.flush();

        assertThat(uplink.resultIds()).containsExactly("t-3", "t-1", "t-2");
    }
}
