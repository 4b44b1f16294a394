package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.cloud.Fleet;
import dev.continuum.edge.cloud.TaskDispatcher;
import dev.continuum.edge.protocol.InputRef;
import dev.continuum.placement.planner.PlacementDecision;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.path.UnsafePathException;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs an inference job on an edge gateway: picks the device ({@link GatewayPlanner}, the placement planner's core), sends the
 * task over MQTT, reports ACTIVE with progress ("Queued on gw-1", "Running on gw-1"), and finishes
 * SUCCEEDED with the output tensor or FAILED with the gateway's reason. The task id is the action
 * id, so a repeated delivery never runs twice on the device.
 */
public final class InferenceProvider implements ActionProvider {

    static final JsonNode SCHEMA = read("""
        {"type": "object",
         "properties": {
           "model": {"type": "string", "minLength": 1,
                     "description": "sha256:<digest>, a deployed name, or name@version"},
           "input": {"type": "object",
                     "properties": {"shape": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
                                    "data": {"type": "array", "items": {"type": "number"}},
                                    "b64": {"type": "string"}},
                     "required": ["shape"]},
           "input_ref": {"type": "string", "pattern": "^file:",
                         "description": "file:<path relative to the gateway's data directory> of a JSON file holding {shape, data|b64}"},
           "constraints": {"type": "object",
                           "properties": {"min_gpu_memory_mb": {"type": "integer", "minimum": 0},
                                          "require_gpu": {"type": "boolean"},
                                          "device": {"type": "string"}},
                           "additionalProperties": false},
           "deadline_seconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 2678400}
         },
         "required": ["model"],
         "oneOf": [{"required": ["input"]}, {"required": ["input_ref"]}]}""");

    private static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);

    private final Fleet fleet;
    private final TaskDispatcher dispatcher;
    private final GatewayPlanner planner;
    private final Clock clock;
    private final Map<String, ActionContext> running = new ConcurrentHashMap<>();
    /**
     * Progress and results arrive on the MQTT event loop; a durable action store fsyncs, which must
     * not stall the loop. One thread keeps each action's updates in arrival order (progress before result).
     */
    private final ExecutorService updates = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "inference-provider-updates");
        t.setDaemon(true);
        return t;
    });

    public InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, GatewayPlanner planner, Clock clock) {
        this.fleet = fleet;
        this.dispatcher = dispatcher;
        this.planner = planner;
        this.clock = clock;
        dispatcher.onProgress(m -> updates.execute(() -> onProgress(m)));
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Edge inference")
                .subtitle("Runs an ONNX model on an edge gateway")
                .description("Chooses the online gateway that has the model (and enough GPU memory) with the lowest predicted "
                        + "latency (the placement planner), "
                        + "sends the task over MQTT and succeeds with details.output = {shape, data}.")
                .keywords(List.of("inference", "onnx", "edge", "gpu"))
                .scope("urn:continuum:providers:inference")
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        JsonNode body = request.body();
        String model = body.get("model").asText();
        Tensor input = body.has("input") ? parseInput(body) : null;
        if (body.hasNonNull("input_ref")) {
            try {
                InputRef.parse(body.get("input_ref").asText());
            } catch (UnsafePathException e) {
                throw new InvalidInputException("/body/input_ref", e.getMessage());
            }
        }
        JsonNode c = body.path("constraints");
        GatewayPlanner.Demand demand = new GatewayPlanner.Demand(model, c.path("min_gpu_memory_mb").asLong(0),
                c.path("require_gpu").asBoolean(false), c.hasNonNull("device") ? c.get("device").asText() : null);
        Instant deadline = deadline(request, clock, DEFAULT_DEADLINE);

        PlacementDecision decision = planner.choose(ctx.actionId(), demand, fleet.usable(), dispatcher::pendingFor);
        if (!(decision instanceof PlacementDecision.Placed placed)) {
            String reason = decision instanceof PlacementDecision.Unplaceable u ? String.join("; ", u.reasons())
                    : decision.toString();
            ObjectNode why = JsonNodeFactory.instance.objectNode().put("error", "NoDevice").put("reason", reason);
            ctx.log("NoDevice", reason, null);
            return ctx.failed("No suitable gateway", why);
        }
        String deviceId = placed.chosen().site();
        ctx.log("Dispatched", "sent to gateway " + deviceId, JsonNodeFactory.instance.objectNode().put("device_id", deviceId));
        ActionStatus active = ctx.active("Sent to " + deviceId, details(deviceId, ctx.actionId()).put("deadline", deadline.toString()));
        dispatch(ctx, deviceId, taskFor(ctx.actionId(), body, input, deadline));
        return active;
    }

    /**
     * After a provider restart (actions in a durable store): sends the task again to the device it
     * was assigned to. The gateway is idempotent by task id, so it answers with the result it kept
     * (or goes on with the task) instead of running it twice.
     */
    @Override
    public void resume(ActionContext ctx) {
        JsonNode d = ctx.status().details();
        String deviceId = d == null ? null : d.path("device_id").asText(null);
        String deadline = d == null ? null : d.path("deadline").asText(null);
        if (deviceId == null || deadline == null) {
            ctx.fail("Provider restarted before the task was sent", JsonNodeFactory.instance.objectNode()
                    .put("error", "NotDispatched"));
            return;
        }
        JsonNode body = ctx.request().body();
        Tensor input = body.has("input") ? parseInput(body) : null;
        ctx.log("Resumed", "provider restarted; waiting again for gateway " + deviceId, null);
        dispatch(ctx, deviceId, taskFor(ctx.actionId(), body, input, Instant.parse(deadline)));
    }

    private TaskMessage taskFor(String taskId, JsonNode body, Tensor input, Instant deadline) {
        return new TaskMessage(taskId, body.get("model").asText(), input,
                body.hasNonNull("input_ref") ? body.get("input_ref").asText() : null, deadline.toString(),
                clock.instant().toString());
    }

    private void dispatch(ActionContext ctx, String deviceId, TaskMessage task) {
        String taskId = task.taskId();
        running.put(taskId, ctx);
        dispatcher.send(deviceId, task).whenComplete((result, error) ->
                updates.execute(() -> finish(ctx, deviceId, result, error)));
        Duration untilDeadline = Duration.between(clock.instant(), Instant.parse(task.deadline()));
        ctx.schedule(untilDeadline.plusSeconds(1), () -> {
            dispatcher.forget(taskId);
            running.remove(taskId);
            ctx.fail("Deadline passed", JsonNodeFactory.instance.objectNode().put("error", "DeadlinePassed")
                    .put("device_id", deviceId).put("deadline", task.deadline()));
        });
    }

    private static Tensor parseInput(JsonNode body) {
        try {
            Tensor input = Wire.mapper().treeToValue(body.get("input"), Tensor.class);
            // decoded and checked once here; sent as raw bytes to gateways that read frames
            return Tensor.framed(input.shape(), input.values());
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidInputException("/body/input", e.getMessage());
        }
    }

    @Override
    public void cancel(ActionContext ctx) {
        running.remove(ctx.actionId());
        dispatcher.forget(ctx.actionId());
    }

    private void finish(ActionContext ctx, String deviceId, ResultMessage result, Throwable error) {
        running.remove(ctx.actionId());
        if (error != null) {
            Throwable cause = error instanceof CompletionException ? error.getCause() : error;
            if (!(cause instanceof CancellationException)) {
                ctx.fail("Dispatch failed", JsonNodeFactory.instance.objectNode().put("error", String.valueOf(cause)));
            }
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
            planner.completed(ctx.actionId(), deviceId, ctx.request().body().get("model").asText(), (long) result.inferenceMs());
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
            JsonNode before = ctx.status().details();
            if (before != null && before.has("deadline")) {
                d.set("deadline", before.get("deadline")); // resume needs it after a restart
            }
            ctx.progress(display, d);
        }
    }

    private static ObjectNode details(String deviceId, String taskId) {
        return JsonNodeFactory.instance.objectNode().put("device_id", deviceId).put("task_id", taskId);
    }

    /** {@code deadline_seconds} from now (else {@code fallback}), or the request's own deadline when that is sooner. */
    static Instant deadline(ActionRequest request, Clock clock, Duration fallback) {
        JsonNode body = request.body();
        Instant deadline = clock.instant().plus(body.has("deadline_seconds")
                ? Duration.ofMillis((long) (body.get("deadline_seconds").asDouble() * 1000)) : fallback);
        return request.deadline() != null && request.deadline().isBefore(deadline) ? request.deadline() : deadline;
    }

    static JsonNode read(String json) {
        try {
            return Wire.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
