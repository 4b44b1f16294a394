package dev.continuum.edge.gateway.app;

import dev.continuum.edge.gateway.inference.BatchInference;
import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The worker: takes spooled tasks in arrival order, runs each run of consecutive tasks for the same model
 * with stackable inputs as one ONNX Runtime batch, and hands every task's result to the {@link ResultOutbox}.
 * A task past its deadline, or whose input cannot be read, fails without running.
 */
final class BatchRunner {

    private static final Logger LOG = Logger.getLogger(BatchRunner.class.getName());

    /**
     * A batch still running after this long is announced ("running" progress). Most inferences end sooner:
     * their result is the only message, instead of a progress message racing the result through the broker.
     */
    static final Duration ANNOUNCE_RUNNING_AFTER = Duration.ofMillis(50);

    /** The batch on ONNX Runtime now, and whether its "running" progress went out. */
    private record RunningBatch(List<String> taskIds, long startedNanos, AtomicBoolean announced) {}

    private final String deviceId;
    private final int maxBatch;
    private final TaskSpool spool;
    private final ModelRepository models;
    private final TaskInputs inputs;
    private final ResultOutbox outbox;
    private final Uplink uplink;
    private final TaskTimings timings;
    private final Clock clock;
    private final TaskSpans spans;
    private final Thread worker;
    private final AtomicLong tasksRun = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    private volatile RunningBatch current;
    private volatile boolean stopping;

    BatchRunner(GatewayConfig config, TaskSpool spool, ModelRepository models, TaskInputs inputs, ResultOutbox outbox,
                Uplink uplink, TaskTimings timings, Clock clock, TaskSpans spans) {
        this.spans = spans;
        this.deviceId = config.deviceId();
        this.maxBatch = config.maxBatch();
        this.spool = spool;
        this.models = models;
        this.inputs = inputs;
        this.outbox = outbox;
        this.uplink = uplink;
        this.timings = timings;
        this.clock = clock;
        this.worker = new Thread(this::work, "gateway-worker-" + deviceId);
        worker.setDaemon(true);
    }

    void start() {
        worker.start();
    }

    /** Stops taking tasks; the batch in hand finishes (its results recorded, so it does not run again). */
    void stop() {
        stopping = true;
    }

    /** Waits for the batch in hand after {@link #stop()}. */
    void awaitStopped(Duration timeout) throws InterruptedException {
        worker.join(timeout.toMillis());
    }

    /** How many tasks reached ONNX Runtime. */
    long tasksRun() {
        return tasksRun.get();
    }

    /** Tasks in the batch on ONNX Runtime now (for the heartbeat). */
    int running() {
        return running.get();
    }

    private void work() {
        while (!stopping) {
            try {
                if (spool.awaitWork(Duration.ofMillis(500))) {
                    runNextBatch();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "worker error", e);
            }
        }
    }

    /** Runs the tasks at the head of the spool that make one batch, or fails the first one if it cannot run. */
    void runNextBatch() {
        long start = System.nanoTime();
        Instant taken = clock.instant();
        List<TaskSpool.Spooled> batch = new ArrayList<>();
        List<Tensor> batchInputs = new ArrayList<>();
        for (TaskSpool.Spooled s : spool.head(maxBatch)) {
            String refusal = null;
            Tensor input = null;
            if (spool.expired(s)) {
                refusal = "expired before it could run";
            } else {
                try {
                    input = inputs.resolve(s.task());
                } catch (RuntimeException e) {
                    refusal = "bad input: " + e.getMessage();
                }
            }
            if (refusal != null) {
                if (batch.isEmpty()) {
                    finish(s, ResultMessage.failed(s.task().taskId(), deviceId, refusal));
                    return;
                }
                break; // it fails on its own, as the head of the next round
            }
            if (!batch.isEmpty() && (!s.task().model().equals(batch.get(0).task().model())
                    || !BatchInference.stackable(batchInputs.get(0), input))) {
                break; // keep arrival order: a batch is a run of consecutive compatible tasks
            }
            batch.add(s);
            batchInputs.add(input);
        }
        if (!batch.isEmpty()) {
            run(batch, batchInputs, start, taken);
        }
    }

    private void run(List<TaskSpool.Spooled> batch, List<Tensor> batchInputs, long start, Instant taken) {
        long resolved = System.nanoTime();
        double inputMs = (resolved - start) / 1e6;
        for (TaskSpool.Spooled s : batch) {
            timings.started(s.task().taskId(), start);
        }
        timings.record(StageTimes.Stage.INPUT, resolved - start);
        List<BatchInference.Outcome> outcomes;
        String digest;
        running.set(batch.size());
        try (ModelRepository.Lease lease = models.acquire(batch.get(0).task().model())) {
            digest = lease.digest();
            current = new RunningBatch(batch.stream().map(s -> s.task().taskId()).toList(), System.nanoTime(),
                    new AtomicBoolean());
            tasksRun.addAndGet(batch.size());
            long onnx = System.nanoTime();
            outcomes = BatchInference.run(lease.model(), batchInputs);
            timings.record(StageTimes.Stage.ONNX, System.nanoTime() - onnx);
        } catch (RuntimeException e) {
            for (TaskSpool.Spooled s : batch) {
                finish(s, ResultMessage.failed(s.task().taskId(), deviceId, e.getMessage()));
            }
            return;
        } finally {
            current = null;
            running.set(0);
        }
        for (int i = 0; i < batch.size(); i++) {
            TaskSpool.Spooled s = batch.get(i);
            // waiting only: until the worker took its batch (reading inputs and the run are inputMs and inferenceMs)
            double queuedMs = Math.max(0, Duration.between(s.receivedAt(), taken).toNanos() / 1e6);
            finish(s, switch (outcomes.get(i)) {
                case BatchInference.Output o -> new ResultMessage(s.task().taskId(), deviceId, null,
                        ResultMessage.SUCCEEDED, sameFormAsInput(s.task(), o.tensor()), null, digest, o.batchSize(),
                        queuedMs, o.inferenceMs(), inputMs);
                case BatchInference.Failure f -> ResultMessage.failed(s.task().taskId(), deviceId, f.error());
            });
        }
    }

    /** Hands the result on and records the task's span, from its arrival to its result. */
    private void finish(TaskSpool.Spooled task, ResultMessage result) {
        outbox.finish(result);
        spans.finished(task.task(), task.receivedAt(), result);
    }

    /** A task that came as a binary frame is answered with one; a JSON task (an older cloud) with JSON. */
    private static Tensor sameFormAsInput(TaskMessage task, Tensor output) {
        return task.input() != null && task.input().inBody() ? Tensor.framed(output.shape(), output.values()) : output;
    }

    /** Tells the cloud about a batch that has been running for a while (called by a timer). */
    void announceRunning() {
        RunningBatch batch = current;
        if (batch == null || System.nanoTime() - batch.startedNanos() < ANNOUNCE_RUNNING_AFTER.toNanos()
                || !batch.announced().compareAndSet(false, true)) {
            return;
        }
        for (String taskId : batch.taskIds()) {
            uplink.progress(new ProgressMessage(taskId, deviceId, "running", 0));
        }
    }
}
