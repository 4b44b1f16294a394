package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.provider.server.ActionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Re-placement (split from {@link InferenceProvider}, issue 34): when a site the provider sent a job to goes offline
 * and stays away, the job is sent where the planner places it now — the action log says {@code PlacedAgain} and the
 * details {@code placed_again_from} — or fails with the planner's reasons; a moved input is moved again to the new
 * site.
 */
final class JobReplacement {

    /** How often (every 500 ms) the planner is asked where a job whose site went offline runs now: a minute. */
    private static final int REPLACE_ATTEMPTS = 120;
    /**
     * How long a gateway that went offline must stay away, while this provider's own link to the broker is up, before
     * its jobs are placed elsewhere: twice the longest reconnect backoff of a gateway's link (5 s). A gateway that is
     * back by then keeps its jobs and runs each once; one placed elsewhere would run them too, from its spool.
     */
    static final Duration REPLACE_AFTER = Duration.ofSeconds(10);
    private static final Duration REPLACE_TICK = Duration.ofMillis(500);
    /**
     * When the planner pushes its decisions: how often it is asked anyway, for a push that never came (sent while
     * its own link was down, or to an instance that has since died): six times in the same minute.
     */
    static final Duration FALLBACK_TICK = Duration.ofSeconds(10);
    private static final int FALLBACK_ATTEMPTS = 6;

    private final Fleet fleet;
    private final TaskDispatcher dispatcher;
    private final JobPlacement planner;
    private final Clock clock;
    private final JobDispatch dispatches;
    private final InputMoves moves;
    /** Jobs waiting for a new decision, by job id: a push for one asks again at once. */
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    /** A job past {@link #REPLACE_AFTER} with no new decision yet, after {@code attempt} asks. */
    private record Waiting(JobDispatch.Dispatched d, int attempt) {}

    JobReplacement(Fleet fleet, TaskDispatcher dispatcher, JobPlacement planner, Clock clock, JobDispatch dispatches,
                   InputMoves moves) {
        this.fleet = fleet;
        this.dispatcher = dispatcher;
        this.planner = planner;
        this.clock = clock;
        this.dispatches = dispatches;
        this.moves = moves;
        planner.onPlacedAgain(jobId -> dispatches.later(() -> pushed(jobId)));
    }

    /** The planner pushed a decision about {@code jobId}: if it waits for one, it is asked now (no network call). */
    private void pushed(String jobId) {
        Waiting w = waiting.remove(jobId);
        if (w != null) {
            placeAgain(w.d(), w.attempt() + 1);
        }
    }

    /**
     * A gateway went offline: once it has stayed away {@link #REPLACE_AFTER}, each job out on it is sent where the
     * planner places it now (the planner service decides that by itself when it sees the gateway go, logs why and
     * pushes it here). Asked again every half second — or, where decisions are pushed, when one arrives and every
     * {@link #FALLBACK_TICK} in case it never does — until a decision is known; a job the planner cannot place
     * anywhere for a minute (no site online, its own gateway not back) fails with its reasons.
     */
    void siteLost(String deviceId) {
        for (JobDispatch.Dispatched d : List.copyOf(dispatches.sent.values())) {
            if (d.deviceId().equals(deviceId) && dispatches.running.containsKey(d.task().taskId())) {
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
    private void awaitReturn(JobDispatch.Dispatched d, Duration away) {
        ActionContext ctx = stillAway(d);
        if (ctx == null) {
            return;
        }
        Duration counted = fleet.connected() ? away : Duration.ZERO;
        if (counted.compareTo(REPLACE_AFTER) < 0) {
            ctx.schedule(REPLACE_TICK, () -> dispatches.later(() -> awaitReturn(d, counted.plus(REPLACE_TICK))));
            return;
        }
        placeAgain(d, 0);
    }

    /** The action of a job still out on its lost gateway, which is still away; null when there is nothing to do. */
    private ActionContext stillAway(JobDispatch.Dispatched d) {
        String taskId = d.task().taskId();
        ActionContext ctx = dispatches.running.get(taskId);
        if (ctx == null || ctx.finished() || dispatches.sent.get(taskId) != d) {
            return null; // finished meanwhile, or already sent elsewhere
        }
        if (fleet.usable().stream().anyMatch(x -> x.deviceId().equals(d.deviceId()))) {
            return null; // its gateway is back: the dispatcher sends the task again there, and it runs once
        }
        return ctx;
    }

    private void placeAgain(JobDispatch.Dispatched d, int attempt) {
        String taskId = d.task().taskId();
        ActionContext ctx = stillAway(d);
        if (ctx == null) {
            return;
        }
        Optional<JobPlacement.Decision> next = planner.placedAgain(d.job(), d.deviceId());
        boolean pushes = planner.pushesPlacedAgain();
        int attempts = pushes ? FALLBACK_ATTEMPTS : REPLACE_ATTEMPTS;
        boolean nowhereYet = next.isPresent() && !next.get().placed() && attempt < attempts;
        if (next.isEmpty() || nowhereYet) {
            // no decision yet, or no site online at all (e.g. every gateway cut off by a broker restart): ask again,
            // the task still pending for its own gateway, for up to a minute
            if (attempt < attempts) {
                Waiting w = new Waiting(d, attempt);
                waiting.put(d.job().id(), w);
                ctx.schedule(pushes ? FALLBACK_TICK : REPLACE_TICK, () -> dispatches.later(() -> {
                    if (waiting.remove(d.job().id(), w)) { // not answered by a push meanwhile
                        placeAgain(d, attempt + 1);
                    }
                }));
            }
            return;
        }
        JobPlacement.Decision decision = next.get();
        dispatcher.forget(taskId); // the lost gateway's late result, if any, is ignored from now on
        if (!decision.placed()) {
            dispatches.running.remove(taskId);
            dispatches.sent.remove(taskId);
            ctx.fail("No suitable gateway after " + d.deviceId() + " went offline", JsonNodeFactory.instance.objectNode()
                    .put("error", "NoDevice").put("reason", decision.refusal()).put("lost_device_id", d.deviceId()));
            return;
        }
        String to = decision.site();
        ctx.log("PlacedAgain", d.deviceId() + " went offline before the job finished; sent to " + to,
                JsonNodeFactory.instance.objectNode().put("device_id", to).put("lost_device_id", d.deviceId()));
        ObjectNode details = JobDispatch.details(to, taskId).put("deadline", d.task().deadline()).put("placed_again_from", d.deviceId());
        InferenceProvider.placementInto(details, decision.explanation());
        // the input as the job named it (not a copy moved to the lost site), moved again if the new site needs it
        JsonNode body = ctx.request().body();
        TaskMessage task = body.hasNonNull("input_ref") ? JobDispatch.withInputRef(d.task(), body.get("input_ref").asText()) : d.task();
        Optional<InputMover.Move> move = moves.moveFor(taskId, body, to, taskId + "/input/" + to);
        if (move.isPresent()) {
            Instant startedAt = clock.instant();
            InputMoves.movingInto(details, move.get(), startedAt);
            ctx.progress("Moving input to " + to + " (" + d.deviceId() + " went offline)", details);
            moves.moveThenDispatch(ctx, d.job(), to, task, move.get(), startedAt, details.deepCopy());
            return;
        }
        ctx.progress("Sent to " + to + " (" + d.deviceId() + " went offline)", details);
        dispatches.dispatch(ctx, d.job(), to, task, 0);
    }
}
