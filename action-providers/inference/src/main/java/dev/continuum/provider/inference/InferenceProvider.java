package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.protocol.InputRef;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.paths.UnsafePathException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs an inference job on an edge gateway or the datacenter pool: the placement planner picks the site
 * ({@link JobPlacement}: the planner service, or its core in process); when that site is not where the job's
 * {@code input_ref} lies ({@code input_location}), the provider first moves the file there through the transfer
 * provider ({@link InputMover}: status "Moving input", details {@code state: "moving input"}) and reports the move's
 * wall time to the planner at completion; it sends the task over MQTT, reports ACTIVE with progress ("Queued on gw-1", "Running on gw-1"), and finishes
 * SUCCEEDED with the output tensor or FAILED with the gateway's reason. The task id is the action
 * id, so a repeated delivery never runs twice on the device. This class takes the action (start, resume, cancel,
 * stop); {@link JobDispatch} sends and settles the jobs, {@link InputMoves} moves their inputs and
 * {@link JobReplacement} places a job again when its site is lost.
 */
public final class InferenceProvider implements ActionProvider {

    /** The action's input schema (resource {@code inference-input-schema.json} beside this class). */
    static final JsonNode SCHEMA = readResource("inference-input-schema.json");

    private static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    /** How long a lost gateway is given to come back before its jobs are placed elsewhere ({@link JobReplacement}). */
    static final Duration REPLACE_AFTER = JobReplacement.REPLACE_AFTER;

    private final JobPlacement planner;
    private final Clock clock;
    /** Where inline inputs lie (the endpoint of the cloud side sending them, e.g. {@code datacenter}); null: not said. */
    private final String inlineDataEndpoint;
    /** The jobs out on sites: sending, deadlines, progress and results. */
    private final JobDispatch dispatches;
    /** Moving inputs to the chosen site. */
    private final InputMoves moves;
    /** Placing a job again when its site is lost. */
    private final JobReplacement replacement;

    public InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock) {
        this(fleet, dispatcher, planner, clock, null);
    }

    public InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock,
                             String inlineDataEndpoint) {
        this(fleet, dispatcher, planner, clock, inlineDataEndpoint, InputMover.NONE);
    }

    InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock,
                      String inlineDataEndpoint, InputMover inputs) {
        this.planner = planner;
        this.clock = clock;
        this.inlineDataEndpoint = inlineDataEndpoint;
        this.dispatches = new JobDispatch(dispatcher, planner, clock,
                ctx -> job(ctx.actionId(), ctx.request(), ctx.request().body(), null));
        this.moves = new InputMoves(inputs, fleet, dispatches, this::siteLost);
        this.replacement = new JobReplacement(fleet, dispatcher, planner, clock, dispatches, moves);
        fleet.onChange(d -> {
            if (!d.online()) {
                dispatches.later(() -> replacement.siteLost(d.deviceId()));
            }
        });
    }

    /** A site went offline while an input moved there: its jobs are placed again as any lost site's are. */
    private void siteLost(String deviceId) {
        replacement.siteLost(deviceId);
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
        JobPlacement.Job job = job(ctx.actionId(), request, body, input);
        Instant deadline = deadline(request, clock, DEFAULT_DEADLINE);

        JobPlacement.Decision decision = planner.place(job);
        if (!decision.placed()) {
            ObjectNode why = JsonNodeFactory.instance.objectNode().put("error", "NoDevice").put("reason", decision.refusal());
            if (decision.explanation() != null) {
                why.set("placement", decision.explanation());
            }
            ctx.log("NoDevice", decision.refusal(), null);
            return ctx.failed("No suitable gateway", why);
        }
        String deviceId = decision.site();
        ObjectNode details = JobDispatch.details(deviceId, ctx.actionId()).put("deadline", deadline.toString());
        placementInto(details, decision.explanation());
        // the gateway's span of the task joins the run's trace (docs/operations.md "Traces")
        TaskMessage task = taskFor(ctx.actionId(), body, input, deadline).withTraceparent(ctx.traceparent().orElse(null));
        Optional<InputMover.Move> move = moves.moveFor(ctx.actionId(), body, deviceId, ctx.actionId() + "/input");
        if (move.isPresent()) {
            Instant startedAt = clock.instant();
            InputMoves.movingInto(details, move.get(), startedAt);
            ctx.log("MovingInput", "moving " + move.get().inputRef() + " from " + move.get().fromEndpoint() + " to "
                    + move.get().toEndpoint() + " for " + deviceId, details.get("input_move"));
            ActionStatus active = ctx.active("Moving input to " + deviceId, details);
            dispatches.watchDeadline(ctx, task);
            moves.moveThenDispatch(ctx, job, deviceId, task, move.get(), startedAt, details.deepCopy());
            return active;
        }
        ctx.log("Dispatched", "sent to gateway " + deviceId, JsonNodeFactory.instance.objectNode().put("device_id", deviceId));
        ActionStatus active = ctx.active("Sent to " + deviceId, details);
        dispatches.dispatch(ctx, job, deviceId, task, 0);
        dispatches.watchDeadline(ctx, task);
        return active;
    }

    /** What the planner is asked: the model, constraints, SLO and where the input lies (inline: with this provider). */
    private JobPlacement.Job job(String actionId, ActionRequest request, JsonNode body, Tensor input) {
        JsonNode c = body.path("constraints");
        List<JobPlacement.Data> data = new ArrayList<>();
        JsonNode at = body.path("input_location");
        if (at.isObject()) {
            data.add(new JobPlacement.Data(at.get("endpoint_id").asText(),
                    body.path("input_ref").asText("input"), at.get("size_bytes").asLong()));
        } else if (input != null && inlineDataEndpoint != null) {
            data.add(new JobPlacement.Data(inlineDataEndpoint, "inline", input.values().length * (long) Float.BYTES));
        }
        // the planner files the decision under the run too
        String runId = request.callingRunId();
        return new JobPlacement.Job(actionId, runId, body.get("model").asText(), c.path("min_gpu_memory_mb").asLong(0),
                c.path("require_gpu").asBoolean(false), c.hasNonNull("device") ? c.get("device").asText() : null, data,
                body.path("latency_slo_ms").asLong(0));
    }

    /** The planner's decision in the action's details: site, predicted latency split and its reasons. */
    static void placementInto(ObjectNode details, JsonNode decision) {
        if (decision == null || !decision.has("chosen")) {
            return;
        }
        JsonNode chosen = decision.get("chosen");
        JsonNode latency = chosen.path("latency");
        ObjectNode p = details.putObject("placement").put("site", chosen.path("site").asText());
        p.putObject("predicted").put("transfer_ms", latency.path("transferMillis").asLong())
                .put("queue_ms", latency.path("queueMillis").asLong()).put("compute_ms", latency.path("computeMillis").asLong())
                .put("total_ms", latency.path("transferMillis").asLong() + latency.path("queueMillis").asLong()
                        + latency.path("computeMillis").asLong());
        p.set("reasons", decision.path("reasons"));
        // the sites scored and not chosen, each with its own breakdown: "move the data" beside "run beside it"
        ArrayNode others = p.putArray("alternatives");
        for (JsonNode alt : decision.path("alternatives")) {
            others.addObject().put("site", alt.path("site").asText()).put("explanation", alt.path("explanation").asText());
        }
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
        TaskMessage task = taskFor(ctx.actionId(), body, input, Instant.parse(deadline));
        JobPlacement.Job job = job(ctx.actionId(), ctx.request(), body, input);
        JsonNode move = d.path("input_move");
        Optional<InputMover.Move> unfinished = move.isObject() && !move.has("transfer_ms")
                ? moves.moveFor(ctx.actionId(), body, deviceId, move.path("request_id").asText()) : Optional.empty();
        if (unfinished.isPresent()) {
            // restarted while the input was moving: the same request id finds the same transfer, which goes on
            ctx.log("Resumed", "provider restarted; moving the input to " + deviceId + " again", null);
            dispatches.watchDeadline(ctx, task);
            moves.moveThenDispatch(ctx, job, deviceId, task, unfinished.get(), Instant.parse(move.path("started_at").asText()),
                    (ObjectNode) d.deepCopy());
            return;
        }
        ctx.log("Resumed", "provider restarted; waiting again for gateway " + deviceId, null);
        if (move.isObject()) {
            task = JobDispatch.withInputRef(task, move.path("moved_input_ref").asText());
        }
        dispatches.dispatch(ctx, job, deviceId, task, move.path("transfer_ms").asLong(0));
        dispatches.watchDeadline(ctx, task);
    }

    private TaskMessage taskFor(String taskId, JsonNode body, Tensor input, Instant deadline) {
        return new TaskMessage(taskId, body.get("model").asText(), input,
                body.hasNonNull("input_ref") ? body.get("input_ref").asText() : null, deadline.toString(),
                clock.instant().toString());
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

    /**
     * The provider is closed: input moves are interrupted (their transfers go on at the transfer provider, found
     * again by request id when the action is resumed), waiting for gateways ends, and nothing more is written; the
     * actions stay as stored for the restarted provider or another instance to resume.
     */
    @Override
    public void stop() {
        dispatches.stop(moves::interrupt);
    }

    @Override
    public void cancel(ActionContext ctx) {
        dispatches.cancel(ctx.actionId());
    }

    /** {@code deadline_seconds} from now (else {@code fallback}), or the request's own deadline when that is sooner. */
    static Instant deadline(ActionRequest request, Clock clock, Duration fallback) {
        JsonNode body = request.body();
        Instant deadline = clock.instant().plus(body.has("deadline_seconds")
                ? Duration.ofMillis((long) (body.get("deadline_seconds").asDouble() * 1000)) : fallback);
        return request.deadline() != null && request.deadline().isBefore(deadline) ? request.deadline() : deadline;
    }

    static JsonNode readResource(String name) {
        try (java.io.InputStream in = InferenceProvider.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing beside " + InferenceProvider.class.getName());
            }
            return Wire.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(String json) {
        try {
            return Wire.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
