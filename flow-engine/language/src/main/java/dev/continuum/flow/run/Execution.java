package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.JsonSize;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.State;
import dev.continuum.flow.model.WaitState;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One interpreter step in progress: a private copy of the run data, plus the effects and log lines it
 * produces. Moves every branch through as many non-waiting states as it can, within the step's
 * transition budget. What each state does lives beside it: {@link InlineSteps} (Pass, Choice,
 * ExpressionEval, Fail, Wait), {@link ActionSteps}, {@link JoinSteps} (Parallel, Map) and, for errors,
 * {@link ErrorSteps}. They are static functions of this object, so the split allocates nothing per step.
 */
final class Execution {

    static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    final FlowDefinition flow;
    final InterpreterOptions options;
    final RunData run;
    final Instant now;
    final List<Effect> effects = new ArrayList<>();
    final List<LogEntry> log = new ArrayList<>();
    /** States entered in this step; at {@link InterpreterOptions#maxTransitionsPerTurn()} the rest wait a turn. */
    private int enteredThisTurn;
    private boolean yielded;

    Execution(FlowDefinition flow, InterpreterOptions options, RunData run, Instant now) {
        this.flow = flow;
        this.options = options;
        this.run = run;
        this.now = now;
    }

    Step finish() {
        if (!run.status.finished()) {
            boolean inactive = run.branches.values().stream().anyMatch(b -> b.waiting != null
                    && b.waiting.kind == WaitKind.ACTION && b.waiting.action.inactive);
            run.status = inactive ? RunStatus.INACTIVE : RunStatus.ACTIVE;
            if (!inactive) {
                run.inactiveReason = null;
            }
        }
        return new Step(new RunState(run), effects, log);
    }

    // ---- the run context as flows see it ----

    JsonNode context() {
        ObjectNode context = JSON.objectNode();
        context.put("run_id", run.runId);
        context.put("flow_id", run.flowId);
        context.put("flow_version", run.flowVersion);
        context.put("user_id", run.userId);
        context.put("username", run.userId);
        context.put("label", run.label);
        ArrayNode tags = context.putArray("tags");
        run.tags.forEach(tags::add);
        return context;
    }

    void logLine(String code, String stateName, String description, JsonNode details) {
        log.add(new LogEntry(code, stateName, description, details == null ? JSON.objectNode() : details, now));
    }

    static ObjectNode details(String key, JsonNode value) {
        ObjectNode details = JSON.objectNode();
        details.set(key, value);
        return details;
    }

    // ---- moving branches ----

    /** Runs every branch that is not waiting until each waits, ends or has to wait for the next turn. */
    void advanceAll() {
        boolean moved = true;
        while (moved && !run.status.finished()) {
            moved = false;
            for (Branch branch : List.copyOf(run.branches.values())) {
                if (run.status.finished()) {
                    return;
                }
                if (run.branches.containsKey(branch.id) && branch.waiting == null) {
                    enter(branch);
                    moved = true;
                }
            }
        }
    }

    FlowDefinition flowOf(Branch branch) {
        if (branch.parent == null) {
            return flow;
        }
        Branch parent = run.branches.get(branch.parent);
        return switch (flowOf(parent).state(parent.stateName)) {
            case ParallelState parallel -> parallel.branches().get(branch.index);
            case MapState map -> map.iterator();
            case ActionState a -> noParent(branch);
            case PassState p -> noParent(branch);
            case ChoiceState c -> noParent(branch);
            case WaitState w -> noParent(branch);
            case FailState f -> noParent(branch);
            case ExpressionEvalState e -> noParent(branch);
        };
    }

    private static FlowDefinition noParent(Branch branch) {
        throw new IllegalStateException("branch " + branch.id + " has no Parallel or Map parent");
    }

    State stateOf(Branch branch) {
        return flowOf(branch).state(branch.stateName);
    }

    String where(Branch branch) {
        return "state '" + branch.stateName + "'";
    }

    /**
     * Executes the branch's current state once: the one dispatch over the state types. A run past its
     * transition limit fails here; a step past its per-turn budget leaves the branch for the next turn.
     */
    private void enter(Branch branch) {
        if (run.transitions >= options.maxTransitions()) {
            failRun(ErrorNames.TRANSITION_LIMIT_EXCEEDED, where(branch) + " would be state number "
                    + (run.transitions + 1) + " of the run, over the limit of " + options.maxTransitions()
                    + " states entered per run (a loop with no Action or Wait that never leaves ends here)");
            return;
        }
        if (enteredThisTurn >= options.maxTransitionsPerTurn()) {
            yieldTurn(branch);
            return;
        }
        enteredThisTurn++;
        run.transitions++;
        State state = stateOf(branch);
        try {
            switch (state) {
                case PassState pass -> InlineSteps.pass(this, branch, pass);
                case ChoiceState choice -> InlineSteps.choice(this, branch, choice);
                case ExpressionEvalState eval -> InlineSteps.expressionEval(this, branch, eval);
                case FailState fail -> InlineSteps.fail(this, branch, fail);
                case WaitState wait -> InlineSteps.waitState(this, branch, wait);
                case ActionState action -> ActionSteps.start(this, branch, action);
                case ParallelState parallel -> JoinSteps.startParallel(this, branch, parallel);
                case MapState map -> JoinSteps.startMap(this, branch, map);
            }
        } catch (DataException e) {
            failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }

    /**
     * The step has used its budget: the branch waits on a timer that is due at once, so the engine
     * commits what was done and continues in a later turn, and one flow cannot hold the engine. One
     * timer serves every branch that yields (any of them resumes all), so a wide Map asks for one event.
     */
    private void yieldTurn(Branch branch) {
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.YIELD;
        waiting.token = token(branch) + "#yield";
        waiting.at = now;
        branch.waiting = waiting;
        if (!yielded) {
            yielded = true;
            effects.add(new Effect.ScheduleTimer(waiting.token, now));
        }
    }

    /** A new turn: every branch that yielded moves again, within this step's budget. */
    void resumeYielded() {
        for (Branch branch : run.branches.values()) {
            if (branch.waiting != null && branch.waiting.kind == WaitKind.YIELD) {
                branch.waiting = null;
            }
        }
    }

    // ---- reading and placing data ----

    JsonNode effectiveInput(Branch branch, DataPaths paths, String field) throws DataException {
        return select(branch, branch.data, paths.inputPath(), field);
    }

    /**
     * The part of {@code data} an InputPath or OutputPath {@code path} selects: all of it for {@code "$"}, an empty
     * object for {@code null}; a path that matches nothing is a runtime error naming {@code field}.
     */
    JsonNode select(Branch branch, JsonNode data, String path, String field) throws DataException {
        if (path == null) {
            return JSON.objectNode();
        }
        if (JsonPaths.isWholeDocument(path)) {
            return data.deepCopy(); // without _context: it is visible to paths, not part of the data
        }
        return read(branch, path, Templates.withContext(data, context()), field);
    }

    /** The value at {@code path} in {@code view}; a path that matches nothing is a runtime error naming {@code field}. */
    JsonNode read(Branch branch, String path, JsonNode view, String field) throws DataException {
        try {
            return JsonPaths.read(path, view, context());
        } catch (JsonPaths.MissingPathException e) {
            throw new DataException(where(branch) + " " + field + ": path '" + path + "' not found in the state input");
        }
    }

    Templates.Evaluated template(Branch branch, JsonNode template, JsonNode input, String field, JsonNode context)
            throws DataException {
        return Templates.evaluate(template, input, context, where(branch) + " " + field);
    }

    JsonNode place(Branch branch, String resultPath, JsonNode result) throws DataException {
        try {
            return JsonPaths.place(branch.data, resultPath, result);
        } catch (DataException e) {
            throw new DataException(where(branch) + " " + e.getMessage());
        }
    }

    // ---- transitions and endings ----

    /** Goes to {@code next} with {@code data}, or ends the branch when there is no next. */
    void moveOn(Branch branch, Optional<String> next, JsonNode data) {
        OptionalInt tooLarge = JsonSize.over(data, options.maxStateBytes());
        if (tooLarge.isPresent()) {
            failRun(ErrorNames.DATA_LIMIT_EXCEEDED, where(branch) + " produced a state document of " + tooLarge.getAsInt()
                    + " bytes, over the limit of " + options.maxStateBytes() + " bytes");
            return;
        }
        branch.data = data;
        branch.waiting = null;
        if (next.isPresent()) {
            enterState(branch, next.get());
            return;
        }
        if (branch.parent == null) {
            run.branches.clear();
            run.status = RunStatus.SUCCEEDED;
            run.output = data;
            logLine("FlowSucceeded", branch.stateName, "The run succeeded", null);
        } else {
            JoinSteps.childFinished(this, branch, data);
        }
    }

    void enterState(Branch branch, String stateName) {
        branch.stateName = stateName;
        String key = (branch.id.isEmpty() ? "" : branch.id + "/") + stateName;
        branch.visit = run.visits.merge(key, 1, Integer::sum);
        branch.attempt = 0;
        branch.retriesUsed.clear();
        branch.waiting = null;
    }

    /** Unique per run, branch, state visit and attempt: the provider runs a repeated request once. */
    String requestId(Branch branch) {
        return run.runId + "/" + (branch.id.isEmpty() ? "" : branch.id + "/") + branch.stateName + "/"
                + branch.visit + "/" + branch.attempt;
    }

    String token(Branch branch) {
        return requestId(branch);
    }

    /** Errors no Catch may handle (States.Runtime, States.DataLimitExceeded, ...) end the whole run. */
    void failRun(String error, String cause) {
        endRun(RunStatus.FAILED, error, cause, "FlowFailed", "The run failed: " + error);
    }

    void endRun(RunStatus status, String error, String cause, String code, String description) {
        Branch main = run.branches.get("");
        if (status == RunStatus.FAILED && main != null) {
            run.failedState = main.stateName;
            run.failedInput = main.data;
        }
        for (Branch branch : run.branches.values()) {
            if (branch.waiting != null && branch.waiting.kind == WaitKind.ACTION
                    && branch.waiting.action.actionId != null) {
                effects.add(new Effect.CancelAction(branch.waiting.action.actionUrl, branch.waiting.action.actionId,
                        branch.waiting.action.runAs));
            }
        }
        run.branches.clear();
        run.status = status;
        run.error = error;
        run.cause = cause;
        run.inactiveReason = null;
        ObjectNode details = JSON.objectNode();
        details.put("Error", error);
        details.put("Cause", cause);
        logLine(code, null, description, details);
    }
}
