package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.run.Interpreter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

/**
 * What a run's accepted actions are doing right now — a transfer's bytes, rate and ETA — asked of their providers on
 * the run's behalf, as the run's own polls ask. The run's log records a poll only when the status changes, so
 * progress between changes is only to be had here. Reading changes nothing in the run.
 */
@ApplicationScoped
public class ActionWatch {

    /** {@code error}: why the provider could not be asked (then the rest but the names is null). */
    public record ActionNow(String stateName, String actionUrl, String actionId, String status, String displayStatus,
                            JsonNode details, String error) {}

    private final RunService runs;
    private final FlowInterpreters interpreters;
    private final ActionGateway gateway;
    private final Clock clock;

    public ActionWatch(RunService runs, FlowInterpreters interpreters, ActionGateway gateway, Clock clock) {
        this.runs = runs;
        this.interpreters = interpreters;
        this.gateway = gateway;
        this.clock = clock;
    }

    /** The run's unfinished actions, if the viewer may see the run (else "not found"). */
    public Uni<List<ActionNow>> running(UUID runId, Viewer viewer) {
        return runs.get(runId, viewer).flatMap(run -> interpreters.forVersion(run.flowId(), run.flowVersion()).flatMap(interpreter -> {
            List<Interpreter.RunningAction> running = interpreter.runningActions(run.state(), clock.instant());
            if (running.isEmpty()) {
                return Uni.createFrom().item(List.<ActionNow>of());
            }
            return Uni.join().all(running.stream().map(action -> now(runId, action)).toList()).andFailFast();
        }));
    }

    private Uni<ActionNow> now(UUID runId, Interpreter.RunningAction action) {
        var poll = action.poll();
        return gateway.poll(runId, poll)
                .map(seen -> new ActionNow(action.stateName(), poll.actionUrl(), poll.actionId(), seen.status(),
                        seen.displayStatus(), seen.details(), null))
                .onFailure().recoverWithItem(failure -> new ActionNow(action.stateName(), poll.actionUrl(), poll.actionId(),
                        null, null, null, failure.getMessage()));
    }
}
