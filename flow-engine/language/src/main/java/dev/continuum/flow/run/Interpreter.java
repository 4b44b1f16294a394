package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.WaitKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a flow as a pure function: {@code (run state, event, now) -> (new state, effects, log)}. It
 * never performs I/O and never reads a clock; the engine stores each new state, then carries out its
 * effects, and feeds their outcomes back as events. A run moves through as many non-waiting states
 * (Pass, Choice, ExpressionEval, Fail, zero-length Wait) as it can in one call, and stops at Actions
 * and Waits. One call enters at most {@link InterpreterOptions#maxTransitionsPerTurn()} states; past that
 * the rest wait on a timer due at once, so the engine commits and continues in a later turn. A run that
 * enters more than {@link InterpreterOptions#maxTransitions()} states fails with States.TransitionLimitExceeded.
 */
public final class Interpreter {

    private final FlowDefinition flow;
    private final InterpreterOptions options;

    public Interpreter(FlowDefinition flow, InterpreterOptions options) {
        this.flow = flow;
        this.options = options;
    }

    public FlowDefinition flow() {
        return flow;
    }

    public Step start(JsonNode input, RunContext context, Instant now) {
        RunData run = new RunData();
        run.runId = context.runId();
        run.flowId = context.flowId();
        run.flowVersion = context.flowVersion();
        run.userId = context.userId();
        run.label = context.label();
        run.tags = new ArrayList<>(context.tags());
        run.notifyOn = context.notifyOn() == null ? null : new ArrayList<>(context.notifyOn());
        run.notifyEmail = context.notifyEmail();
        run.status = RunStatus.ACTIVE;
        run.attempt = 1;
        Branch root = new Branch();
        root.id = "";
        root.stateName = flow.startAt();
        root.data = input == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                : input.deepCopy();
        root.visit = 1;
        run.visits.put(flow.startAt(), 1);
        run.branches.put(root.id, root);
        Execution execution = new Execution(flow, options, run, now);
        execution.logLine("FlowStarted", null, "The run started", StartInput.details(flow, root.data));
        execution.advanceAll();
        return execution.finish();
    }

    /**
     * Redrive: a FAILED run starts a new attempt in {@code fromState} (a top-level state; null: where it failed) with
     * {@code input} as that state's input (null: the input it had where it failed). The attempt is logged as
     * FlowRedriven; states entered again get new request ids, so their actions really run again.
     *
     * @throws IllegalStateException when the run has not FAILED
     * @throws IllegalArgumentException when {@code fromState} is not a state of the flow, or there is no input to reuse
     */
    public Step redrive(RunState state, String fromState, JsonNode input, Instant now) {
        if (state.status() != RunStatus.FAILED) {
            throw new IllegalStateException("only a FAILED run can be redriven; this one is " + state.status());
        }
        RunData run = state.mutableCopy();
        String from = fromState != null ? fromState : run.failedState;
        if (from == null || !flow.states().containsKey(from)) {
            throw new IllegalArgumentException(from == null ? "the run failed before entering a state: name one"
                    : "'" + from + "' is not a state of this flow; states: " + String.join(", ", flow.states().keySet()));
        }
        JsonNode data = input != null ? input : run.failedInput;
        if (data == null) {
            throw new IllegalArgumentException("no input is kept for this run's failure: give one");
        }
        run.attempt = Math.max(1, run.attempt) + 1;
        run.status = RunStatus.ACTIVE;
        run.error = null;
        run.cause = null;
        run.output = null;
        Branch root = new Branch();
        root.id = "";
        root.stateName = from;
        root.data = data.deepCopy();
        root.visit = run.visits.merge(from, 1, Integer::sum);
        run.branches.put(root.id, root);
        Execution execution = new Execution(flow, options, run, now);
        com.fasterxml.jackson.databind.node.ObjectNode details = Execution.JSON.objectNode()
                .put("attempt", run.attempt).put("state_name", from).put("input_edited", input != null);
        execution.logLine("FlowRedriven", from, "Attempt " + run.attempt + " starts in " + from, details);
        execution.advanceAll();
        return execution.finish();
    }

    /** Applies one event. Events for tokens the run no longer waits on are ignored: same state, no effects. */
    public Step apply(RunState state, RunEvent event, Instant now) {
        return apply(state, event, now, false);
    }

    /**
     * Applies a turn's events in order, exactly as {@link #apply} one after the other would, the effects and log lines
     * of each in turn; the state in between is never seen, so the first event's private copy of the state serves the
     * rest instead of a deep copy per event.
     */
    public Step applyAll(RunState state, List<RunEvent> events, Instant now) {
        RunState current = state;
        List<Effect> effects = new ArrayList<>();
        List<LogEntry> log = new ArrayList<>();
        for (RunEvent event : events) {
            Step step = apply(current, event, now, current != state); // a state not the caller's is this call's own
            current = step.state();
            effects.addAll(step.effects());
            log.addAll(step.log());
        }
        return new Step(current, effects, log);
    }

    /** {@code owned}: nothing else holds {@code state}, so the step may change it in place rather than copy it. */
    private Step apply(RunState state, RunEvent event, Instant now, boolean owned) {
        if (state.status().finished()) {
            return unchanged(state);
        }
        Execution execution = new Execution(flow, options, owned ? state.data() : state.mutableCopy(), now);
        RunData run = execution.run;
        switch (event) {
            case RunEvent.ActionStarted started -> {
                Optional<Branch> branch = waitingOn(run, started.token(), WaitKind.ACTION);
                if (branch.isEmpty() || branch.get().waiting.action.actionId != null) {
                    return unchanged(state); // unknown token, or a repeated answer to a replayed /run
                }
                ActionSteps.observe(execution, branch.get(), started.observation());
            }
            case RunEvent.ActionPolled polled -> {
                Optional<Branch> branch = waitingOn(run, polled.token(), WaitKind.ACTION);
                if (branch.isEmpty()) {
                    return unchanged(state);
                }
                ActionSteps.observe(execution, branch.get(), polled.observation());
            }
            case RunEvent.ActionCallFailed failed -> {
                Optional<Branch> branch = waitingOn(run, failed.token(), WaitKind.ACTION);
                if (branch.isEmpty()) {
                    return unchanged(state);
                }
                String error = failed.error() == null ? dev.continuum.flow.model.ErrorNames.ACTION_UNABLE_TO_RUN
                        : failed.error();
                execution.logLine("ActionFailed", branch.get().stateName, "The action could not be run: " + error,
                        null);
                ErrorSteps.handleError(execution, branch.get(), error, "The Action state '" + branch.get().stateName
                        + "' could not call its action provider: " + failed.cause());
            }
            case RunEvent.ConsentRequired consent -> {
                Optional<Branch> branch = waitingOn(run, consent.token(), WaitKind.ACTION);
                if (branch.isEmpty()) {
                    return unchanged(state);
                }
                branch.get().waiting.action.inactive = true;
                branch.get().waiting.action.nextPollAt = null; // no token to poll with: it waits for a sign-in and resume
                run.inactiveReason = consent.reason();
                execution.logLine("FlowInactive", branch.get().stateName, "The run needs its owner: " + consent.reason(),
                        null);
            }
            case RunEvent.TimerFired fired -> {
                Optional<Branch> timer = waitingOn(run, fired.token(), WaitKind.TIMER);
                Optional<Branch> retry = waitingOn(run, fired.token(), WaitKind.RETRY);
                if (timer.isPresent()) {
                    InlineSteps.waitOver(execution, timer.get());
                } else if (retry.isPresent()) {
                    ErrorSteps.retryNow(retry.get());
                } else if (waitingOn(run, fired.token(), WaitKind.YIELD).isPresent()) {
                    execution.resumeYielded();
                } else {
                    return unchanged(state);
                }
            }
            case RunEvent.CancelRequested cancel -> execution.endRun(RunStatus.ENDED, null,
                    cancel.reason(), "FlowCanceled", "The run was cancelled"
                            + (cancel.reason() == null ? "" : ": " + cancel.reason()));
            case RunEvent.ResumeRequested resume -> {
                if (run.status != RunStatus.INACTIVE) {
                    return unchanged(state);
                }
                for (Branch branch : run.branches.values()) {
                    if (branch.waiting != null && branch.waiting.kind == WaitKind.ACTION
                            && branch.waiting.action.inactive) {
                        branch.waiting.action.inactive = false;
                        if (branch.waiting.action.actionId == null) {
                            continue; // never started (no token then): the pending StartAction is issued again
                        }
                        branch.waiting.action.nextPollAt = now;
                        execution.effects.add(new Effect.PollAction(branch.waiting.token,
                                branch.waiting.action.actionUrl, branch.waiting.action.actionId, now,
                                branch.waiting.action.runAs));
                    }
                }
                run.status = RunStatus.ACTIVE;
                run.inactiveReason = null;
                execution.logLine("FlowResumed", null, "The run was resumed", null);
            }
        }
        execution.advanceAll();
        return execution.finish();
    }

    /**
     * Effects to (re)issue after a crash: every StartAction not yet answered (same token and request id,
     * so the provider runs it once), every scheduled poll, every timer.
     */
    public List<Effect> pendingEffects(RunState state) {
        List<Effect> effects = new ArrayList<>();
        if (state.status().finished()) {
            return effects;
        }
        boolean yieldTimer = false; // one resumes every yielded branch
        for (Branch branch : state.data().branches.values()) {
            RunData.Waiting waiting = branch.waiting;
            if (waiting == null) {
                continue;
            }
            switch (waiting.kind) {
                case ACTION -> {
                    if (waiting.action.actionId == null) {
                        if (!waiting.action.inactive) { // an inactive one waits for a resume to be started again
                            effects.add(ActionSteps.startEffect(state.data(), branch, waiting));
                        }
                    } else if (waiting.action.nextPollAt != null) { // an INACTIVE action's is its WaitTime deadline
                        effects.add(new Effect.PollAction(waiting.token, waiting.action.actionUrl,
                                waiting.action.actionId, waiting.action.nextPollAt, waiting.action.runAs));
                    }
                }
                case TIMER, RETRY -> effects.add(new Effect.ScheduleTimer(waiting.token, waiting.at));
                case YIELD -> {
                    if (!yieldTimer) {
                        yieldTimer = true;
                        effects.add(new Effect.ScheduleTimer(waiting.token, waiting.at));
                    }
                }
                case JOIN -> {
                }
            }
        }
        return effects;
    }

    /** An action the run waits on that its provider has accepted: where to ask about it now, and in which state. */
    public record RunningAction(String stateName, Effect.PollAction poll) {}

    /**
     * The run's accepted, unfinished actions (inactive ones too), for a live view of their progress: polling them
     * outside the run changes nothing in it.
     */
    public List<RunningAction> runningActions(RunState state, Instant now) {
        List<RunningAction> running = new ArrayList<>();
        if (state.status().finished()) {
            return running;
        }
        for (Branch branch : state.data().branches.values()) {
            RunData.Waiting waiting = branch.waiting;
            if (waiting != null && waiting.kind == WaitKind.ACTION && waiting.action.actionId != null) {
                running.add(new RunningAction(branch.stateName, new Effect.PollAction(waiting.token,
                        waiting.action.actionUrl, waiting.action.actionId, now, waiting.action.runAs)));
            }
        }
        return running;
    }

    private static Optional<Branch> waitingOn(RunData run, String token, WaitKind kind) {
        return run.branches.values().stream()
                .filter(branch -> branch.waiting != null && branch.waiting.kind == kind
                        && branch.waiting.token.equals(token))
                .findFirst();
    }

    private static Step unchanged(RunState state) {
        return new Step(state, List.of(), List.of());
    }
}
