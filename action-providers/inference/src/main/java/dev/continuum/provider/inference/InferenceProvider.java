package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.protocol.InputRef;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.paths.UnsafePathException;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.placement.api.client.PlannerClient;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;

/**
 * Runs an inference job on an edge gateway or the datacenter pool: the placement planner picks the site
 * ({@link JobPlacement}: the planner service, or its core in process); when that site is not where the job's
 * {@code input_ref} lies ({@code input_location}), the provider first moves the file there through the transfer
 * provider ({@link InputMover}: status "Moving input", details {@code state: "moving input"}) and reports the move's
 * wall time to the planner at completion; it sends the task over MQTT, reports ACTIVE with progress ("Queued on gw-1", "Running on gw-1"), and finishes
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
           "deadline_seconds": {"type": "number", "exclusiveMinimum": 0, "maximum": 2678400},
           "latency_slo_ms": {"type": "integer", "minimum": 1,
                              "description": "the planner prefers sites predicted to answer within it"},
           "input_location": {"type": "object",
                              "description": "where input_ref's file lies (a gateway's device id as endpoint) and its size: the planner weighs running beside it against moving it",
                              "properties": {"endpoint_id": {"type": "string", "minLength": 1},
                                             "size_bytes": {"type": "integer", "minimum": 0}},
                              "required": ["endpoint_id", "size_bytes"], "additionalProperties": false}
         },
         "required": ["model"],
         "oneOf": [{"required": ["input"]}, {"required": ["input_ref"]}]}""");

    private static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);
    /** How often (every 500 ms) the planner is asked where a job whose site went offline runs now: a minute. */
    private static final int REPLACE_ATTEMPTS = 120;
    /**
     * How long a gateway that went offline must stay away, while this provider's own link to the broker is up, before
     * its jobs are placed elsewhere: twice the longest reconnect backoff of a gateway's link (5 s). A gateway that is
     * back by then keeps its jobs and runs each once; one placed elsewhere would run them too, from its spool.
     */
    static final Duration REPLACE_AFTER = Duration.ofSeconds(10);
    private static final Duration REPLACE_TICK = Duration.ofMillis(500);

    private final Fleet fleet;
    private final TaskDispatcher dispatcher;
    private final JobPlacement planner;
    private final Clock clock;
    /** Where inline inputs lie (the endpoint of the cloud side sending them, e.g. {@code datacenter}); null: not said. */
    private final String inlineDataEndpoint;
    /** Moves an input to the chosen site when it lies elsewhere ({@link InputMover#NONE}: no transfer provider). */
    private final InputMover inputs;
    private final Map<String, ActionContext> running = new ConcurrentHashMap<>();
    /** The unfinished jobs by task (action) id: what was asked and where it was sent, to place it again if that site goes. */
    private final Map<String, Dispatched> sent = new ConcurrentHashMap<>();

    /** A job out on a device: its demand, the device, the task sent and when, what moving its input took (0: none). */
    private record Dispatched(JobPlacement.Job job, String deviceId, TaskMessage task, long sentAtMillis,
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
    /** The threads moving inputs now, interrupted when the provider stops. */
    private final Set<Thread> moving = ConcurrentHashMap.newKeySet();
    /** Stopped ({@link #stop}): MQTT progress, results and gateway changes are no longer acted on. */
    private volatile boolean stopped;

    public InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock) {
        this(fleet, dispatcher, planner, clock, null);
    }

    public InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock,
                             String inlineDataEndpoint) {
        this(fleet, dispatcher, planner, clock, inlineDataEndpoint, InputMover.NONE);
    }

    InferenceProvider(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock,
                      String inlineDataEndpoint, InputMover inputs) {
        this.inputs = inputs;
        this.fleet = fleet;
        this.dispatcher = dispatcher;
        this.planner = planner;
        this.clock = clock;
        this.inlineDataEndpoint = inlineDataEndpoint;
        dispatcher.onProgress(m -> later(() -> onProgress(m)));
        fleet.onChange(d -> {
            if (!d.online()) {
                later(() -> siteLost(d.deviceId()));
            }
        });
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
        ObjectNode details = details(deviceId, ctx.actionId()).put("deadline", deadline.toString());
        placementInto(details, decision.explanation());
        // the gateway's span of the task joins the run's trace (docs/operations.md "Traces")
        TaskMessage task = taskFor(ctx.actionId(), body, input, deadline).withTraceparent(ctx.traceparent().orElse(null));
        Optional<InputMover.Move> move = moveFor(ctx.actionId(), body, deviceId, ctx.actionId() + "/input");
        if (move.isPresent()) {
            Instant startedAt = clock.instant();
            movingInto(details, move.get(), startedAt);
            ctx.log("MovingInput", "moving " + move.get().inputRef() + " from " + move.get().fromEndpoint() + " to "
                    + move.get().toEndpoint() + " for " + deviceId, details.get("input_move"));
            ActionStatus active = ctx.active("Moving input to " + deviceId, details);
            watchDeadline(ctx, task);
            moveThenDispatch(ctx, job, deviceId, task, move.get(), startedAt, details.deepCopy());
            return active;
        }
        ctx.log("Dispatched", "sent to gateway " + deviceId, JsonNodeFactory.instance.objectNode().put("device_id", deviceId));
        ActionStatus active = ctx.active("Sent to " + deviceId, details);
        dispatch(ctx, job, deviceId, task, 0);
        watchDeadline(ctx, task);
        return active;
    }

    /**
     * The move {@code input_ref} needs to reach {@code site}: none when the input is inline, its location unsaid, it
     * lies on the site's own endpoint, or no transfer provider is configured (then the site reads its own copy, as
     * before there was one).
     */
    private Optional<InputMover.Move> moveFor(String actionId, JsonNode body, String site, String requestId) {
        if (!inputs.configured() || !body.hasNonNull("input_ref") || !body.path("input_location").isObject()) {
            return Optional.empty();
        }
        return inputs.moveFor(actionId, body.get("input_ref").asText(),
                body.path("input_location").path("endpoint_id").asText(null), site, requestId);
    }

    private static void movingInto(ObjectNode details, InputMover.Move move, Instant startedAt) {
        details.put("state", "moving input");
        details.putObject("input_move").put("input_ref", move.inputRef()).put("request_id", move.requestId())
                .put("from_endpoint", move.fromEndpoint()).put("to_endpoint", move.toEndpoint())
                .put("moved_input_ref", move.movedInputRef()).put("started_at", startedAt.toString());
    }

    /**
     * Moves the input on a thread of its own (the carrier blocks), then sends the task with the moved
     * {@code input_ref} to {@code site}; a failed move ends the action FAILED with {@code InputTransferFailed}
     * naming the input. An action that ended meanwhile (its deadline, a cancel) is left alone.
     */
    private void moveThenDispatch(ActionContext ctx, JobPlacement.Job job, String site, TaskMessage task,
                                  InputMover.Move move, Instant startedAt, ObjectNode details) {
        Thread mover = Thread.ofVirtual().name("inference-input-" + ctx.actionId()).unstarted(() -> {
            InputMover.Outcome outcome;
            try {
                outcome = inputs.carry(move, "input of inference " + ctx.actionId(), startedAt, ctx::finished);
            } finally {
                moving.remove(Thread.currentThread());
            }
            if (ctx.finished()) {
                return; // ended meanwhile, or the provider stopped: the move is left to whoever resumes the action
            }
            // the details as the move began (not read back: the status may not be stored yet when a move is quick)
            ObjectNode m = (ObjectNode) details.get("input_move");
            switch (outcome) {
                case InputMover.Outcome.Failed f -> {
                    m.put("transfer_action_id", f.transferAction());
                    details.put("error", "InputTransferFailed").put("input_ref", move.inputRef())
                            .put("reason", f.reason());
                    details.remove("state");
                    ctx.log("InputTransferFailed", move.inputRef() + " could not be moved from " + move.fromEndpoint()
                            + " to " + move.toEndpoint() + ": " + f.reason(), m);
                    ctx.fail("Input " + move.inputRef() + " could not be moved to " + site, details);
                }
                case InputMover.Outcome.Moved ok -> {
                    m.put("transfer_action_id", ok.transferAction()).put("bytes", ok.bytes())
                            .put("transfer_ms", ok.wallMillis());
                    details.put("state", "dispatched");
                    ctx.log("InputMoved", move.inputRef() + " moved to " + move.toEndpoint() + " ("
                            + ok.bytes() + " bytes in " + ok.wallMillis() + " ms); sent to gateway " + site, m);
                    ctx.progress("Sent to " + site, details);
                    dispatch(ctx, job, site, withInputRef(task, move.movedInputRef()), ok.wallMillis());
                    if (fleet.devices().stream().anyMatch(x -> x.deviceId().equals(site) && !x.online())) {
                        // the site went offline while the input moved (its offline event found no job sent there yet)
                        later(() -> siteLost(site));
                    }
                }
            }
        });
        moving.add(mover);
        if (stopped) {
            moving.remove(mover);
            return;
        }
        mover.start();
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
        // the engine's request ids are <run id>/<state>/...: the planner files the decision under the run too
        String runId = request.requestId() != null && request.requestId().indexOf('/') > 0
                ? request.requestId().substring(0, request.requestId().indexOf('/')) : null;
        return new JobPlacement.Job(actionId, runId, body.get("model").asText(), c.path("min_gpu_memory_mb").asLong(0),
                c.path("require_gpu").asBoolean(false), c.hasNonNull("device") ? c.get("device").asText() : null, data,
                body.path("latency_slo_ms").asLong(0));
    }

    /** The planner's decision in the action's details: site, predicted latency split and its reasons. */
    private static void placementInto(ObjectNode details, JsonNode decision) {
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
                ? moveFor(ctx.actionId(), body, deviceId, move.path("request_id").asText()) : Optional.empty();
        if (unfinished.isPresent()) {
            // restarted while the input was moving: the same request id finds the same transfer, which goes on
            ctx.log("Resumed", "provider restarted; moving the input to " + deviceId + " again", null);
            watchDeadline(ctx, task);
            moveThenDispatch(ctx, job, deviceId, task, unfinished.get(), Instant.parse(move.path("started_at").asText()),
                    (ObjectNode) d.deepCopy());
            return;
        }
        ctx.log("Resumed", "provider restarted; waiting again for gateway " + deviceId, null);
        if (move.isObject()) {
            task = withInputRef(task, move.path("moved_input_ref").asText());
        }
        dispatch(ctx, job, deviceId, task, move.path("transfer_ms").asLong(0));
        watchDeadline(ctx, task);
    }

    private static TaskMessage withInputRef(TaskMessage task, String inputRef) {
        return new TaskMessage(task.taskId(), task.model(), task.input(), inputRef, task.deadline(), task.sentAt(),
                task.traceparent());
    }

    private TaskMessage taskFor(String taskId, JsonNode body, Tensor input, Instant deadline) {
        return new TaskMessage(taskId, body.get("model").asText(), input,
                body.hasNonNull("input_ref") ? body.get("input_ref").asText() : null, deadline.toString(),
                clock.instant().toString());
    }

    private void dispatch(ActionContext ctx, JobPlacement.Job job, String deviceId, TaskMessage task, long transferMillis) {
        String taskId = task.taskId();
        running.put(taskId, ctx);
        sent.put(taskId, new Dispatched(job, deviceId, task, clock.millis(), transferMillis));
        dispatcher.send(deviceId, task).whenComplete((result, error) ->
                later(() -> finish(ctx, deviceId, result, error)));
    }

    private void watchDeadline(ActionContext ctx, TaskMessage task) {
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

    /**
     * A gateway went offline: once it has stayed away {@link #REPLACE_AFTER}, each job out on it is sent where the
     * planner places it now (the planner service decides that by itself when it sees the gateway go, and logs why).
     * Asked again every half second until a decision is known; a job the planner cannot place anywhere for a minute (no
     * site online, its own gateway not back) fails with its reasons.
     */
    private void siteLost(String deviceId) {
        for (Dispatched d : List.copyOf(sent.values())) {
            if (d.deviceId().equals(deviceId) && running.containsKey(d.task().taskId())) {
                awaitReturn(d, Duration.ZERO);
            }
        }
    }

    /**
     * Gives the lost gateway {@link #REPLACE_AFTER} to come back before its job is placed elsewhere: a gateway holds
     * the tasks it received in its spool and runs them whether or not it is online, so a job moved from a gateway that
     * comes back runs twice. Only time with this provider's own link up counts: when the broker itself stops, it sends
     * every gateway's last will just before this link drops too, and the gateways are back soon after it is up again.
     */
    private void awaitReturn(Dispatched d, Duration away) {
        ActionContext ctx = stillAway(d);
        if (ctx == null) {
            return;
        }
        Duration counted = fleet.connected() ? away : Duration.ZERO;
        if (counted.compareTo(REPLACE_AFTER) < 0) {
            ctx.schedule(REPLACE_TICK, () -> later(() -> awaitReturn(d, counted.plus(REPLACE_TICK))));
            return;
        }
        placeAgain(d, 0);
    }

    /** The action of a job still out on its lost gateway, which is still away; null when there is nothing to do. */
    private ActionContext stillAway(Dispatched d) {
        String taskId = d.task().taskId();
        ActionContext ctx = running.get(taskId);
        if (ctx == null || ctx.finished() || sent.get(taskId) != d) {
            return null; // finished meanwhile, or already sent elsewhere
        }
        if (fleet.usable().stream().anyMatch(x -> x.deviceId().equals(d.deviceId()))) {
            return null; // its gateway is back: the dispatcher sends the task again there, and it runs once
        }
        return ctx;
    }

    private void placeAgain(Dispatched d, int attempt) {
        String taskId = d.task().taskId();
        ActionContext ctx = stillAway(d);
        if (ctx == null) {
            return;
        }
        Optional<JobPlacement.Decision> next = planner.placedAgain(d.job(), d.deviceId());
        boolean nowhereYet = next.isPresent() && !next.get().placed() && attempt < REPLACE_ATTEMPTS;
        if (next.isEmpty() || nowhereYet) {
            // no decision yet, or no site online at all (e.g. every gateway cut off by a broker restart): ask again,
            // the task still pending for its own gateway, for up to a minute
            if (attempt < REPLACE_ATTEMPTS) {
                ctx.schedule(REPLACE_TICK, () -> later(() -> placeAgain(d, attempt + 1)));
            }
            return;
        }
        JobPlacement.Decision decision = next.get();
        dispatcher.forget(taskId); // the lost gateway's late result, if any, is ignored from now on
        if (!decision.placed()) {
            running.remove(taskId);
            sent.remove(taskId);
            ctx.fail("No suitable gateway after " + d.deviceId() + " went offline", JsonNodeFactory.instance.objectNode()
                    .put("error", "NoDevice").put("reason", decision.refusal()).put("lost_device_id", d.deviceId()));
            return;
        }
        String to = decision.site();
        ctx.log("PlacedAgain", d.deviceId() + " went offline before the job finished; sent to " + to,
                JsonNodeFactory.instance.objectNode().put("device_id", to).put("lost_device_id", d.deviceId()));
        ObjectNode details = details(to, taskId).put("deadline", d.task().deadline()).put("placed_again_from", d.deviceId());
        placementInto(details, decision.explanation());
        // the input as the job named it (not a copy moved to the lost site), moved again if the new site needs it
        JsonNode body = ctx.request().body();
        TaskMessage task = body.hasNonNull("input_ref") ? withInputRef(d.task(), body.get("input_ref").asText()) : d.task();
        Optional<InputMover.Move> move = moveFor(taskId, body, to, taskId + "/input/" + to);
        if (move.isPresent()) {
            Instant startedAt = clock.instant();
            movingInto(details, move.get(), startedAt);
            ctx.progress("Moving input to " + to + " (" + d.deviceId() + " went offline)", details);
            moveThenDispatch(ctx, d.job(), to, task, move.get(), startedAt, details.deepCopy());
            return;
        }
        ctx.progress("Sent to " + to + " (" + d.deviceId() + " went offline)", details);
        dispatch(ctx, d.job(), to, task, 0);
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
        stopped = true;
        moving.forEach(Thread::interrupt);
        for (String taskId : List.copyOf(running.keySet())) {
            dispatcher.forget(taskId);
        }
        running.clear();
        sent.clear();
        updates.shutdownNow();
    }

    /** Runs {@code work} on the updates thread, unless the provider has stopped. */
    private void later(Runnable work) {
        if (stopped) {
            return;
        }
        try {
            updates.execute(work);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile
        }
    }

    @Override
    public void cancel(ActionContext ctx) {
        running.remove(ctx.actionId());
        sent.remove(ctx.actionId());
        dispatcher.forget(ctx.actionId());
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
            JobPlacement.Job job = out != null ? out.job() : job(ctx.actionId(), ctx.request(), ctx.request().body(), null);
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

    private static void keep(JsonNode before, ObjectNode into, String... fields) {
        for (String f : fields) {
            if (before != null && before.has(f)) {
                into.set(f, before.get(f));
            }
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
