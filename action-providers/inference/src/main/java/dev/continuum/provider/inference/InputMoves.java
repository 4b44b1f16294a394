package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.provider.server.ActionContext;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Moving an inference job's {@code input_ref} to the site the planner chose when it lies elsewhere (split from
 * {@link InferenceProvider}, issue 34): through the transfer provider ({@link InputMover}: status "Moving input",
 * details {@code state: "moving input"}), then the task is sent with the moved file; the move's wall time is reported
 * to the planner at completion.
 */
final class InputMoves {

    /** Moves an input to the chosen site when it lies elsewhere ({@link InputMover#NONE}: no transfer provider). */
    private final InputMover inputs;
    private final Fleet fleet;
    private final JobDispatch dispatches;
    /** Told of a site that went offline while an input moved there (its offline event found no job sent there yet). */
    private final Consumer<String> siteLost;
    /** The threads moving inputs now, interrupted when the provider stops. */
    private final Set<Thread> moving = ConcurrentHashMap.newKeySet();

    InputMoves(InputMover inputs, Fleet fleet, JobDispatch dispatches, Consumer<String> siteLost) {
        this.inputs = inputs;
        this.fleet = fleet;
        this.dispatches = dispatches;
        this.siteLost = siteLost;
    }

    /** The provider stops: each move is interrupted (its transfer goes on, found again by request id on resume). */
    void interrupt() {
        moving.forEach(Thread::interrupt);
    }

    /**
     * The move {@code input_ref} needs to reach {@code site}: none when the input is inline, its location unsaid, it
     * lies on the site's own endpoint, or no transfer provider is configured (then the site reads its own copy, as
     * before there was one).
     */
    Optional<InputMover.Move> moveFor(String actionId, JsonNode body, String site, String requestId) {
        if (!inputs.configured() || !body.hasNonNull("input_ref") || !body.path("input_location").isObject()) {
            return Optional.empty();
        }
        return inputs.moveFor(actionId, body.get("input_ref").asText(),
                body.path("input_location").path("endpoint_id").asText(null), site, requestId);
    }

    static void movingInto(ObjectNode details, InputMover.Move move, Instant startedAt) {
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
    void moveThenDispatch(ActionContext ctx, JobPlacement.Job job, String site, TaskMessage task,
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
                    dispatches.dispatch(ctx, job, site, JobDispatch.withInputRef(task, move.movedInputRef()), ok.wallMillis());
                    if (fleet.devices().stream().anyMatch(x -> x.deviceId().equals(site) && !x.online())) {
                        // the site went offline while the input moved (its offline event found no job sent there yet)
                        dispatches.later(() -> siteLost.accept(site));
                    }
                }
            }
        });
        moving.add(mover);
        if (dispatches.stopped) {
            moving.remove(mover);
            return;
        }
        mover.start();
    }
}
