package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.server.ActionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The inference jobs out on sites (split from {@link InferenceProvider}, issue 34): sends each task over MQTT, fails
 * it at its deadline, relays the site's progress ("Queued on gw-1", "Running on gw-1") and settles the action with
 * the site's result — SUCCEEDED with the output tensor, or FAILED with the site's reason — telling the planner what
 * the job took. The task id is the action id, so a repeated delivery never runs twice on the device.
 */
final class JobDispatch {

    private final TaskDispatcher dispatcher;
    private final JobPlacement planner;
    private final Clock clock;
    /** The job an action asked for, read again from its request when it was not sent by this instance. */
    private final Function<ActionContext, JobPlacement.Job> jobOf;
    final Map<String, ActionContext> running = new ConcurrentHashMap<>();
    /** The unfinished jobs by task (action) id: what was asked and where it was sent, to place it again if that site goes. */
    final Map<String, Dispatched> sent = new ConcurrentHashMap<>();

    /** A job out on a device: its demand, the device, the task sent and when, what moving its input took (0: none). */
    record Dispatched(JobPlacement.Job job, String deviceId, TaskMessage task, long sentAtMillis,
                      long transferMillis) {}
    /**
     * Progress and results arrive on the MQTT event loop; a durable action store fsyncs, which must
     * not stall the loop. One thread keeps each action's updates in arrival order (progress before result).
     */
    private final ExecutorService updates = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "inference-provider-updates");
        t.setDaemon(true);
        return t;
    });
    /** Stopped ({@link #stop}): MQTT progress, results and gateway changes are no longer acted on. */
    volatile boolean stopped;

    JobDispatch(TaskDispatcher dispatcher, JobPlacement planner, Clock clock,
                Function<ActionContext, JobPlacement.Job> jobOf) {
        this.dispatcher = dispatcher;
        this.planner = planner;
        this.clock = clock;
        this.jobOf = jobOf;
        dispatcher.onProgress(m -> later(() -> onProgress(m)));
    }

    void dispatch(ActionContext ctx, JobPlacement.Job job, String deviceId, TaskMessage task, long transferMillis) {
        String taskId = task.taskId();
        running.put(taskId, ctx);
        sent.put(taskId, new Dispatched(job, deviceId, task, clock.millis(), transferMillis));
        dispatcher.send(deviceId, task).whenComplete((result, error) ->
                later(() -> finish(ctx, deviceId, result, error)));
    }

    void watchDeadline(ActionContext ctx, TaskMessage task) {
        String taskId = task.taskId();
        Duration untilDeadline = Duration.between(clock.instant(), Instant.parse(task.deadline()));
        ctx.schedule(untilDeadline.plusSeconds(1), () -> {
            dispatcher.forget(taskId);
            running.remove(taskId);
            Dispatched d = sent.remove(taskId);
            ctx.fail("Deadline passed", JsonNodeFactory.instance.objectNode().put("error", "DeadlinePassed")
                    .put("device_id", d == null ? null : d.deviceId()).put("deadline", task.deadline()));
        });
    }

    /** Runs {@code work} on the updates thread, unless the provider has stopped. */
    void later(Runnable work) {
        if (stopped) {
            return;
        }
        try {
            updates.execute(work);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile
        }
    }

    /**
     * Stops acting on progress, results and gateway changes: {@code first} runs once that is so (the input moves
     * are interrupted), then waiting for gateways ends and nothing more is written.
     */
    void stop(Runnable first) {
        stopped = true;
        first.run();
        for (String taskId : List.copyOf(running.keySet())) {
            dispatcher.forget(taskId);
        }
        running.clear();
        sent.clear();
        updates.shutdownNow();
    }

    /** The action was cancelled: its task is forgotten. */
    void cancel(String taskId) {
        running.remove(taskId);
        sent.remove(taskId);
        dispatcher.forget(taskId);
    }

    private void finish(ActionContext ctx, String deviceId, ResultMessage result, Throwable error) {
        Dispatched out = sent.get(ctx.actionId());
        if (out != null && !out.deviceId().equals(deviceId)) {
            return; // the answer of a site the job was taken from (it went offline): the new site's counts
        }
        Throwable cause = error instanceof CompletionException ? error.getCause() : error;
        if (cause instanceof CancellationException) {
            return; // cancelled, or forgotten at its deadline (whoever forgot it has settled the action)
        }
        running.remove(ctx.actionId());
        sent.remove(ctx.actionId());
        if (error != null) {
            ctx.fail("Dispatch failed", JsonNodeFactory.instance.objectNode().put("error", String.valueOf(cause)));
            return;
        }
        if (result.succeeded()) {
            ObjectNode d = details(deviceId, result.taskId());
            d.put("model_digest", result.modelDigest());
            // {shape, data} whatever form it travelled in
            d.set("output", Wire.mapper().valueToTree(Tensor.of(result.output().shape(), result.output().values())));
            d.put("batch_size", result.batchSize());
            d.put("inference_ms", result.inferenceMs());
            d.put("queued_ms", result.queuedMs());
            d.put("input_ms", result.inputMs());
            JobPlacement.Job job = out != null ? out.job() : jobOf.apply(ctx);
            JsonNode before = ctx.status().details();
            keep(before, d, "placement", "placed_again_from", "input_move");
            long batchCompute = Math.round(result.inputMs() + result.inferenceMs()); // reading the inputs, then the run
            long queued = Math.round(result.queuedMs());
            // the site's time per task, as the planner predicts it: a batch's reading and run shared by its tasks
            long computePerTask = Math.round((result.inputMs() + result.inferenceMs()) / Math.max(1, result.batchSize()));
            PlannerClient.Measured measured = new PlannerClient.Measured(computePerTask, queued,
                    PlannerClient.NOT_MEASURED, PlannerClient.NOT_MEASURED);
            if (out != null) {
                long roundTrip = clock.millis() - out.sentAtMillis();
                // what happened, beside what the planner predicted: compute and queue as the gateway measured them,
                // the rest of the round trip (the task's and the result's trips, the broker's hops, decoding,
                // spooling) as overhead — which the planner counts in its transfer term
                long overhead = Math.max(0, roundTrip - batchCompute - queued);
                // moving the input (0 when it lay at the site) is the transfer the planner predicted; it came first
                measured = new PlannerClient.Measured(computePerTask, queued, out.transferMillis(), overhead);
                d.putObject("actual").put("transfer_ms", out.transferMillis() + overhead).put("input_move_ms", out.transferMillis())
                        .put("queue_ms", queued).put("compute_ms", batchCompute).put("total_ms", out.transferMillis() + roundTrip);
            }
            planner.completed(job, deviceId, measured);
            ctx.complete(d);
        } else {
            ctx.fail("Inference failed", details(deviceId, result.taskId()).put("error", result.error()));
        }
    }

    private void onProgress(ProgressMessage m) {
        ActionContext ctx = running.get(m.taskId());
        if (ctx != null && !ctx.finished()) {
            String display = ("running".equals(m.state()) ? "Running on " : "Queued on ") + m.deviceId();
            ObjectNode d = details(m.deviceId(), m.taskId()).put("state", m.state())
                    .put("queue_position", m.queuePosition());
            // resume needs the deadline after a restart; the placement explains the action to its reader
            keep(ctx.status().details(), d, "deadline", "placement", "placed_again_from", "input_move");
            ctx.progress(display, d);
        }
    }

    static TaskMessage withInputRef(TaskMessage task, String inputRef) {
        return new TaskMessage(task.taskId(), task.model(), task.input(), inputRef, task.deadline(), task.sentAt(),
                task.traceparent());
    }

    private static void keep(JsonNode before, ObjectNode into, String... fields) {
        for (String f : fields) {
            if (before != null && before.has(f)) {
                into.set(f, before.get(f));
            }
        }
    }

    static ObjectNode details(String deviceId, String taskId) {
        return JsonNodeFactory.instance.objectNode().put("device_id", deviceId).put("task_id", taskId);
    }
}
