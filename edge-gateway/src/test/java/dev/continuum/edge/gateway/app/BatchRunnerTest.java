package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.TestModels;
import java.nio.file.Path;
import dev.continuum.testkit.VirtualClock;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker on a real spool and the real OCR classifier, one round at a time. */
class BatchRunnerTest {

    @TempDir
    Path state;

    private final RecordingUplink uplink = new RecordingUplink().acknowledgingAtOnce();
    private ModelRepository models;
    private TaskSpool spool;
    private BatchRunner runner;

    @BeforeEach
    void setUp() {
        Path model = TestModels.ocrClassifier();
        GatewayConfig config = GatewayConfig.of("gw-1", "127.0.0.1", 1883, state, "bootstrap").withMaxBatch(4);
        models = new ModelRepository(state.resolve("models"), false);
        models.deploy("ocr-cls", "1", models.install(model));
        spool = TaskSpool.open(state.resolve("spool"), TaskSpool.Limits.defaults().withFsync(false), Clock.systemUTC());
        TaskAcks acks = new TaskAcks(spool);
        TaskTimings timings = new TaskTimings(new StageTimes());
        ResultOutbox outbox = new ResultOutbox(config.durability(), spool, uplink, () -> "c", acks, timings, Runnable::run,
                Clock.systemUTC());
        runner = new BatchRunner(config, spool, models, new TaskInputs(config.dataDir()), outbox, uplink, timings,
                Clock.systemUTC(), new TaskSpans(io.opentelemetry.api.OpenTelemetry.noop(), config.deviceId()));
    }

    @AfterEach
    void closeModels() {
        models.close();
    }

    private static TaskMessage task(String id, String model, String deadline) {
        return new TaskMessage(id, model, Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(id.hashCode(), 1)), null,
                deadline, null);
    }

    private static TaskMessage task(String id, String model) {
        return task(id, model, Instant.now().plusSeconds(60).toString());
    }

    @Test
    void shouldRunConsecutiveTasksForOneModelAsOneBatchAndLeaveTheNextModelForTheNextRound() {
        spool.admit(task("a-1", "ocr-cls"));
        spool.admit(task("a-2", "ocr-cls"));
        spool.admit(task("b-1", "other-model"));
        spool.admit(task("a-3", "ocr-cls"));

        runner.runNextBatch();
        int firstRound = uplink.results.size();
        runner.runNextBatch();
        runner.runNextBatch();

        assertThat(firstRound).isEqualTo(2);
        assertThat(uplink.resultIds()).containsExactly("a-1", "a-2", "b-1", "a-3");
        assertThat(uplink.results.subList(0, 2)).allSatisfy(r -> {
            assertThat(r.succeeded()).isTrue();
            assertThat(r.batchSize()).isEqualTo(2);
        });
        assertThat(uplink.results.get(2).error()).contains("not deployed");
        assertThat(uplink.results.get(3).batchSize()).isEqualTo(1);
        assertThat(runner.tasksRun()).isEqualTo(3);
    }

    @Test
    void shouldNeverPutMoreThanMaxBatchTasksInOneRun() {
        for (int i = 0; i < 6; i++) {
            spool.admit(task("t-" + i, "ocr-cls"));
        }

        runner.runNextBatch();

        assertThat(uplink.results).hasSize(4).allSatisfy(r -> assertThat(r.batchSize()).isEqualTo(4));
        assertThat(spool.queued()).isEqualTo(2);
    }

    @Test
    void shouldFailATaskPastItsDeadlineWithoutRunningIt() {
        spool.admit(task("late", "ocr-cls", Instant.now().minusSeconds(1).toString()));
        spool.admit(task("on-time", "ocr-cls"));

        runner.runNextBatch();
        runner.runNextBatch();

        assertThat(uplink.results).extracting(ResultMessage::taskId, ResultMessage::succeeded)
                .containsExactly(tuple("late", false), tuple("on-time", true));
        assertThat(uplink.results.getFirst().error()).contains("expired");
        assertThat(runner.tasksRun()).isEqualTo(1);
    }

    @Test
    void shouldFailATaskWhoseInputCannotBeReadAndRunTheOthers() {
        spool.admit(task("ok-1", "ocr-cls"));
        spool.admit(new TaskMessage("bad", "ocr-cls", null, "file:frames/missing.json", null, null));
        spool.admit(task("ok-2", "ocr-cls"));

        runner.runNextBatch();
        runner.runNextBatch();
        runner.runNextBatch();

        assertThat(uplink.resultIds()).containsExactly("ok-1", "bad", "ok-2");
        assertThat(uplink.results.get(1).error()).startsWith("bad input:").contains("names no file");
        assertThat(runner.tasksRun()).isEqualTo(2);
    }

    @Test
    void shouldReportTheWaitBeforeTheWorkerTookTheTaskApartFromReadingItsInputAndRunningIt() throws Exception {
        VirtualClock clock = VirtualClock.stoppedAt(Instant.parse("2026-11-27T12:00:00Z"));
        GatewayConfig config = GatewayConfig.of("gw-2", "127.0.0.1", 1883, state.resolve("gw-2"), "bootstrap");
        java.nio.file.Files.createDirectories(config.dataDir().resolve("frames"));
        java.nio.file.Files.write(config.dataDir().resolve("frames/f-1.json"), dev.continuum.edge.protocol.Wire.encode(
                Tensor.of(TestModels.CLS_SHAPE, TestModels.image(1, 1))));
        TaskSpool waiting = TaskSpool.open(state.resolve("gw-2-spool"), TaskSpool.Limits.defaults().withFsync(false), clock);
        TaskTimings timings = new TaskTimings(new StageTimes());
        ResultOutbox outbox = new ResultOutbox(config.durability(), waiting, uplink, () -> "c", new TaskAcks(waiting),
                timings, Runnable::run, Clock.systemUTC());
        BatchRunner worker = new BatchRunner(config, waiting, models, new TaskInputs(config.dataDir()), outbox, uplink,
                timings, clock, new TaskSpans(io.opentelemetry.api.OpenTelemetry.noop(), config.deviceId()));
        waiting.admit(new TaskMessage("f-1", "ocr-cls", null, "file:frames/f-1.json", "2026-11-27T13:00:00Z", null));

        clock.advance(java.time.Duration.ofMillis(2_500)); // the task waits 2.5 s before the worker takes it
        worker.runNextBatch();

        ResultMessage r = uplink.results.getFirst();
        assertThat(r.succeeded()).isTrue();
        // the wait alone: before, the input's reading and the model's run counted as queued too
        assertThat(r.queuedMs()).isEqualTo(2_500.0);
        assertThat(r.inputMs()).isPositive();
        assertThat(r.inferenceMs()).isPositive();
    }
}
