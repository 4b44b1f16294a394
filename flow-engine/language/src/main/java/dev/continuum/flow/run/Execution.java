package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import dev.continuum.flow.model.WaitState;
import dev.continuum.flow.run.RunData.ActionCall;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.Join;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * One interpreter step in progress: a private copy of the run data, plus the effects and log lines it
 * produces. Moves every branch through as many non-waiting states as it can.
 */
final class Execution {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final FlowDefinition flow;
    private final InterpreterOptions options;
    final RunData run;
    private final Instant now;
    final List<Effect> effects = new ArrayList<>();
    final List<LogEntry> log = new ArrayList<>();

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

    // ---- moving branches ----

    /** Runs every branch that is not waiting until each waits or ends. */
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
            default -> throw new IllegalStateException("branch " + branch.id + " has no Parallel or Map parent");
        };
    }

    State stateOf(Branch branch) {
        return flowOf(branch).state(branch.stateName);
    }

    String where(Branch branch) {
        return "state '" + branch.stateName + "'";
    }

    /** Executes the branch's current state once. */
    private void enter(Branch branch) {
        State state = stateOf(branch);
        try {
            switch (state) {
                case PassState pass -> pass(branch, pass);
                case ChoiceState choice -> choice(branch, choice);
                case ExpressionEvalState eval -> expressionEval(branch, eval);
                case FailState fail -> fail(branch, fail);
                case WaitState wait -> waitState(branch, wait);
                case ActionState action -> startAction(branch, action);
                case ParallelState parallel -> startParallel(branch, parallel);
                case MapState map -> startMap(branch, map);
            }
        } catch (DataException e) {
            failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }

    private JsonNode effectiveInput(Branch branch, DataPaths paths, String field) throws DataException {
        if (paths.inputPath() == null) {
            return JSON.objectNode();
        }
        if (JsonPaths.isWholeDocument(paths.inputPath())) {
            return branch.data.deepCopy(); // without _context: it is visible to paths, not part of the data
        }
        try {
            return JsonPaths.read(paths.inputPath(), Templates.withContext(branch.data, context()), context());
        } catch (JsonPaths.MissingPathException e) {
            throw new DataException(where(branch) + " " + field + ": path '" + paths.inputPath()
                    + "' not found in the state input");
        }
    }

    private Templates.Evaluated template(Branch branch, JsonNode template, JsonNode input, String field,
                                        JsonNode context) throws DataException {
        return Templates.evaluate(template, input, context, where(branch) + " " + field);
    }

    private void pass(Branch branch, PassState pass) throws DataException {
        JsonNode input = effectiveInput(branch, pass.paths(), "InputPath");
        Templates.Evaluated result;
        if (pass.result().isPresent()) {
            result = new Templates.Evaluated(pass.result().get().deepCopy(), pass.result().get());
        } else if (pass.parameters().isPresent()) {
            result = template(branch, pass.parameters().get(), input, "Parameters", context());
        } else {
            result = new Templates.Evaluated(input, input);
        }
        logLine("PassCompleted", pass.name(), "Pass state '" + pass.name() + "' completed",
                details("result", result.redacted()));
        moveOn(branch, pass.next(), place(branch, pass.paths().resultPath(), result.value()));
    }

    private void choice(Branch branch, ChoiceState choice) throws DataException {
        ChoiceRules rules = new ChoiceRules(Templates.withContext(branch.data, context()), context(), where(branch));
        String target = null;
        for (int i = 0; i < choice.choices().size() && target == null; i++) {
            ChoiceState.Branch candidate = choice.choices().get(i);
            if (rules.holds(candidate.rule(), "Choices[" + i + "]")) {
                target = candidate.next();
            }
        }
        if (target == null && choice.defaultNext().isPresent()) {
            target = choice.defaultNext().get();
        }
        if (target == null) {
            failBranch(branch, ErrorNames.NO_CHOICE_MATCHED, "Choice state '" + choice.name()
                    + "' matched no rule and has no Default");
            return;
        }
        logLine("ChoiceCompleted", choice.name(), "Choice state '" + choice.name() + "' chose '" + target + "'",
                details("next", JSON.textNode(target)));
        moveOn(branch, Optional.of(target), branch.data);
    }

    private void expressionEval(Branch branch, ExpressionEvalState eval) throws DataException {
        Templates.Evaluated result = eval.parameters().filter(p -> !p.isNull()).isPresent()
                ? template(branch, eval.parameters().get(), branch.data, "Parameters", context())
                : new Templates.Evaluated(JSON.nullNode(), JSON.nullNode());
        logLine("ExpressionEvalCompleted", eval.name(), "ExpressionEval state '" + eval.name() + "' completed",
                details("result", result.redacted()));
        moveOn(branch, eval.next(), place(branch, eval.resultPath(), result.value()));
    }

    private void fail(Branch branch, FailState fail) throws DataException {
        JsonNode view = Templates.withContext(branch.data, context());
        String error = fail.error().orElse(null);
        String cause = fail.cause().orElse(null);
        if (fail.errorPath().isPresent()) {
            error = readText(branch, view, fail.errorPath().get(), "ErrorPath");
        }
        if (fail.causePath().isPresent()) {
            cause = readText(branch, view, fail.causePath().get(), "CausePath");
        }
        failBranch(branch, error == null ? FailState.DEFAULT_ERROR : error,
                cause == null ? "Fail state '" + fail.name() + "' was reached" : cause);
    }

    private String readText(Branch branch, JsonNode view, String path, String field) throws DataException {
        try {
            JsonNode value = JsonPaths.read(path, view, context());
            return value.isTextual() ? value.asText() : value.toString();
        } catch (JsonPaths.MissingPathException e) {
            throw new DataException(where(branch) + " " + field + ": path '" + path + "' not found in the state input");
        }
    }

    private void waitState(Branch branch, WaitState wait) throws DataException {
        JsonNode view = Templates.withContext(branch.data, context());
        Instant until = switch (wait.until()) {
            case WaitState.Seconds seconds -> now.plusSeconds(seconds.seconds());
            case WaitState.Timestamp timestamp -> timestamp.timestamp();
            case WaitState.SecondsPath path -> {
                JsonNode value = readValue(branch, view, path.path(), "SecondsPath");
                if (!value.isIntegralNumber() || value.asLong() < 0) {
                    throw new DataException(where(branch) + " SecondsPath: '" + path.path()
                            + "' must hold a whole number of seconds, 0 or more, but holds " + value);
                }
                yield now.plusSeconds(value.asLong());
            }
            case WaitState.TimestampPath path -> {
                JsonNode value = readValue(branch, view, path.path(), "TimestampPath");
                yield ChoiceRules.timestamp(value).orElseThrow(() -> new DataException(where(branch)
                        + " TimestampPath: '" + path.path() + "' must hold an RFC 3339 timestamp, but holds " + value));
            }
        };
        logLine("WaitStarted", wait.name(), "Waiting until " + until, details("until", JSON.textNode(until.toString())));
        if (!until.isAfter(now)) {
            logLine("WaitCompleted", wait.name(), "Wait state '" + wait.name() + "' completed", null);
            moveOn(branch, wait.next(), branch.data);
            return;
        }
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.TIMER;
        waiting.token = token(branch) + "#wait";
        waiting.at = until;
        branch.waiting = waiting;
        effects.add(new Effect.ScheduleTimer(waiting.token, until));
    }

    private JsonNode readValue(Branch branch, JsonNode view, String path, String field) throws DataException {
        try {
            return JsonPaths.read(path, view, context());
        } catch (JsonPaths.MissingPathException e) {
            throw new DataException(where(branch) + " " + field + ": path '" + path + "' not found in the state input");
        }
    }

    // ---- Action ----

    private void startAction(Branch branch, ActionState action) throws DataException {
        JsonNode input = effectiveInput(branch, action.paths(), "InputPath");
        Templates.Evaluated body = action.parameters().isPresent()
                ? template(branch, action.parameters().get(), input, "Parameters", context())
                : new Templates.Evaluated(input, input);
        ActionCall call = new ActionCall();
        call.requestId = requestId(branch);
        call.actionUrl = action.actionUrl();
        call.body = body.value();
        call.runAs = action.runAs().orElse(null);
        call.actionScope = action.actionScope().orElse(null);
        call.deadline = now.plus(action.waitTime());
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.ACTION;
        waiting.token = call.requestId;
        waiting.action = call;
        branch.waiting = waiting;
        effects.add(startEffect(branch, waiting));
        ObjectNode details = JSON.objectNode();
        details.put("action_url", call.actionUrl);
        details.put("request_id", call.requestId);
        details.set("body", body.redacted());
        logLine("ActionStarted", action.name(), "Starting action at " + call.actionUrl, details);
    }

    Effect.StartAction startEffect(Branch branch, Waiting waiting) {
        ActionCall call = waiting.action;
        return new Effect.StartAction(waiting.token, branch.stateName, call.actionUrl, call.requestId, call.body,
                run.label, run.tags, call.runAs, call.actionScope);
    }

    private String requestId(Branch branch) {
        return run.runId + "/" + (branch.id.isEmpty() ? "" : branch.id + "/") + branch.stateName + "/"
                + branch.visit + "/" + branch.attempt;
    }

    private String token(Branch branch) {
        return requestId(branch);
    }

    /** The provider's answer about a running action. */
    void observe(Branch branch, ActionObservation observation) {
        ActionState action = (ActionState) stateOf(branch);
        ActionCall call = branch.waiting.action;
        if (observation.actionId() != null) {
            call.actionId = observation.actionId();
        }
        boolean changed = !java.util.Objects.equals(call.status, observation.status())
                || !java.util.Objects.equals(call.displayStatus, observation.displayStatus());
        call.status = observation.status();
        call.displayStatus = observation.displayStatus();
        call.inactive = false;
        String status = observation.status() == null ? "" : observation.status();
        switch (status) {
            case "SUCCEEDED" -> completeAction(branch, action, observation, true);
            case "FAILED" -> completeAction(branch, action, observation, false);
            case "INACTIVE" -> {
                call.inactive = true;
                run.status = RunStatus.INACTIVE;
                run.inactiveReason = inactiveReason(observation);
                logLine("FlowInactive", action.name(), "The action needs attention: " + run.inactiveReason,
                        statusDocument(observation));
            }
            default -> {
                if (changed) {
                    logLine("ActionPolled", action.name(), "Action " + call.actionId + " is " + status,
                            statusDocument(observation));
                }
                if (!now.isBefore(call.deadline)) {
                    timeOut(branch, action);
                } else {
                    schedulePoll(branch);
                }
            }
        }
    }

    private static String inactiveReason(ActionObservation observation) {
        if (observation.displayStatus() != null && !observation.displayStatus().isBlank()) {
            return observation.displayStatus();
        }
        if (observation.details() != null && !observation.details().isNull()) {
            JsonNode details = observation.details();
            return details.isTextual() ? details.asText() : details.toString();
        }
        return "the action provider reported INACTIVE";
    }

    void schedulePoll(Branch branch) {
        ActionCall call = branch.waiting.action;
        double factor = Math.pow(options.pollBackoffRate(), call.polls);
        long millis = (long) Math.min(options.pollInitial().toMillis() * factor, options.pollMax().toMillis());
        Instant at = now.plus(Duration.ofMillis(millis));
        if (at.isAfter(call.deadline)) {
            at = call.deadline; // so a timed-out action is noticed on time
        }
        call.polls++;
        call.nextPollAt = at;
        effects.add(new Effect.PollAction(branch.waiting.token, call.actionUrl, call.actionId, at, call.runAs));
    }

    private void timeOut(Branch branch, ActionState action) {
        ActionCall call = branch.waiting.action;
        effects.add(new Effect.CancelAction(call.actionUrl, call.actionId, call.runAs));
        String cause = "Action " + call.actionId + " in state '" + action.name() + "' was still running after its WaitTime of "
                + action.waitTime().toSeconds() + " seconds and was cancelled";
        logLine("ActionFailed", action.name(), cause, null);
        handleError(branch, ErrorNames.ACTION_TIMEOUT, cause);
    }

    private void completeAction(Branch branch, ActionState action, ActionObservation observation, boolean succeeded) {
        ActionCall call = branch.waiting.action;
        JsonNode result = statusDocument(observation);
        if (call.actionId != null) {
            effects.add(new Effect.ReleaseAction(call.actionUrl, call.actionId, call.runAs));
        }
        if (succeeded) {
            logLine("ActionCompleted", action.name(), "Action " + call.actionId + " succeeded", result);
        } else {
            logLine("ActionFailed", action.name(), "Action " + call.actionId + " failed", result);
            if (action.exceptionOnActionFailure()) {
                handleError(branch, ErrorNames.ACTION_FAILED, result.toString());
                return;
            }
        }
        try {
            branch.waiting = null;
            moveOn(branch, action.next(), place(branch, action.paths().resultPath(), result));
        } catch (DataException e) {
            failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }

    /** The action status as Globus places it at ResultPath. */
    static ObjectNode statusDocument(ActionObservation observation) {
        ObjectNode status = JSON.objectNode();
        status.put("action_id", observation.actionId());
        status.put("status", observation.status());
        status.put("display_status", observation.displayStatus());
        status.set("details", observation.details() == null ? JSON.nullNode() : observation.details().deepCopy());
        return status;
    }

    // ---- Parallel and Map ----

    private void startParallel(Branch branch, ParallelState parallel) throws DataException {
        JsonNode input = effectiveInput(branch, parallel.paths(), "InputPath");
        if (parallel.parameters().isPresent()) {
            input = template(branch, parallel.parameters().get(), input, "Parameters", context()).value();
        }
        Join join = new Join();
        join.total = parallel.branches().size();
        join.input = input;
        for (int i = 0; i < join.total; i++) {
            join.results.add(JSON.nullNode());
        }
        awaitJoin(branch, join);
        logLine("ParallelStarted", parallel.name(), "Running " + join.total + " branches", null);
        while (join.started < join.total) {
            spawn(branch, join.started, parallel.branches().get(join.started).startAt(), input);
            join.started++;
        }
    }

    private void startMap(Branch branch, MapState map) throws DataException {
        JsonNode input = effectiveInput(branch, map.paths(), "InputPath");
        JsonNode items = input;
        if (!JsonPaths.isWholeDocument(map.itemsPath())) {
            try {
                items = JsonPaths.read(map.itemsPath(), Templates.withContext(input, context()), context());
            } catch (JsonPaths.MissingPathException e) {
                throw new DataException(where(branch) + " ItemsPath: path '" + map.itemsPath()
                        + "' not found in the state input");
            }
        }
        if (!items.isArray()) {
            throw new DataException(where(branch) + " ItemsPath: '" + map.itemsPath() + "' must select a list, but selects "
                    + items.getNodeType().name().toLowerCase());
        }
        Join join = new Join();
        join.total = items.size();
        join.input = input;
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (map.itemSelector().isPresent()) {
                ObjectNode context = (ObjectNode) context();
                ObjectNode entry = context.putObject("Map").putObject("Item");
                entry.put("Index", i);
                entry.set("Value", item);
                item = template(branch, map.itemSelector().get(), input, "ItemSelector", context).value();
            }
            join.items.add(item);
            join.results.add(JSON.nullNode());
        }
        awaitJoin(branch, join);
        logLine("MapStarted", map.name(), "Running the iterator over " + join.total + " items", null);
        if (join.total == 0) {
            completeJoin(branch);
            return;
        }
        startMoreItems(branch, map);
    }

    private void startMoreItems(Branch branch, MapState map) {
        Join join = branch.waiting.join;
        int limit = map.maxConcurrency() == 0 ? Integer.MAX_VALUE : map.maxConcurrency();
        while (join.started < join.total && join.started - join.finished < limit) {
            spawn(branch, join.started, map.iterator().startAt(), join.items.get(join.started));
            join.started++;
        }
    }

    private void awaitJoin(Branch branch, Join join) {
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.JOIN;
        waiting.token = token(branch) + "#join";
        waiting.join = join;
        branch.waiting = waiting;
    }

    private void spawn(Branch parent, int index, String startAt, JsonNode input) {
        Branch child = new Branch();
        child.id = (parent.id.isEmpty() ? "" : parent.id + "/") + parent.stateName + "[" + index + "]";
        child.parent = parent.id;
        child.index = index;
        child.data = input.deepCopy();
        run.branches.put(child.id, child);
        enterState(child, startAt);
    }

    private void enterState(Branch branch, String stateName) {
        branch.stateName = stateName;
        String key = (branch.id.isEmpty() ? "" : branch.id + "/") + stateName;
        branch.visit = run.visits.merge(key, 1, Integer::sum);
        branch.attempt = 0;
        branch.retriesUsed.clear();
        branch.waiting = null;
    }

    private void childFinished(Branch child, JsonNode output) {
        Branch parent = run.branches.get(child.parent);
        run.branches.remove(child.id);
        Join join = parent.waiting.join;
        join.results.set(child.index, output);
        join.finished++;
        if (join.finished == join.total) {
            completeJoin(parent);
        } else if (stateOf(parent) instanceof MapState map) {
            startMoreItems(parent, map);
        }
    }

    private void completeJoin(Branch branch) {
        State state = stateOf(branch);
        ArrayNode results = JSON.arrayNode();
        branch.waiting.join.results.forEach(results::add);
        String resultPath;
        Optional<String> next;
        if (state instanceof ParallelState parallel) {
            resultPath = parallel.paths().resultPath();
            next = parallel.next();
            logLine("ParallelCompleted", state.name(), "All branches completed", null);
        } else {
            MapState map = (MapState) state;
            resultPath = map.paths().resultPath();
            next = map.next();
            logLine("MapCompleted", state.name(), "All items completed", null);
        }
        try {
            branch.waiting = null;
            moveOn(branch, next, place(branch, resultPath, results));
        } catch (DataException e) {
            failRun(ErrorNames.RUNTIME, e.getMessage());
        }
    }

    // ---- transitions, errors and endings ----

    private JsonNode place(Branch branch, String resultPath, JsonNode result) throws DataException {
        try {
            return JsonPaths.place(branch.data, resultPath, result);
        } catch (DataException e) {
            throw new DataException(where(branch) + " " + e.getMessage());
        }
    }

    /** Goes to {@code next} with {@code data}, or ends the branch when there is no next. */
    private void moveOn(Branch branch, Optional<String> next, JsonNode data) {
        int size = data.toString().getBytes(StandardCharsets.UTF_8).length;
        if (size > options.maxStateBytes()) {
            failRun(ErrorNames.DATA_LIMIT_EXCEEDED, where(branch) + " produced a state document of " + size
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
            childFinished(branch, data);
        }
    }

    /** An error in a state that may Retry or Catch it (Action, Parallel, Map). */
    void handleError(Branch branch, String error, String cause) {
        State state = stateOf(branch);
        List<Retrier> retriers = switch (state) {
            case ActionState a -> a.retry();
            case ParallelState p -> p.retry();
            case MapState m -> m.retry();
            default -> List.of();
        };
        List<Catcher> catchers = switch (state) {
            case ActionState a -> a.catchers();
            case ParallelState p -> p.catchers();
            case MapState m -> m.catchers();
            default -> List.of();
        };
        dropChildren(branch);
        for (int i = 0; i < retriers.size(); i++) {
            Retrier retrier = retriers.get(i);
            if (ErrorNames.matches(retrier.errorEquals(), error)) {
                int used = branch.retriesUsed.getOrDefault(String.valueOf(i), 0);
                if (used < retrier.maxAttempts()) {
                    scheduleRetry(branch, retrier, i, used, error, cause);
                    return;
                }
                break; // the first matching retrier decides; when it is exhausted, catchers take over
            }
        }
        for (Catcher catcher : catchers) {
            if (ErrorNames.matches(catcher.errorEquals(), error)) {
                ObjectNode errorInfo = JSON.objectNode();
                errorInfo.put("Error", error);
                errorInfo.put("Cause", cause);
                logLine("StateCaught", state.name(), "Caught " + error + "; going to '" + catcher.next() + "'",
                        errorInfo);
                try {
                    JsonNode data = JsonPaths.place(branch.data, catcher.resultPath(), errorInfo);
                    moveOn(branch, Optional.of(catcher.next()), data);
                } catch (DataException e) {
                    failRun(ErrorNames.RUNTIME, where(branch) + " Catch " + e.getMessage());
                }
                return;
            }
        }
        failBranch(branch, error, cause);
    }

    private void scheduleRetry(Branch branch, Retrier retrier, int index, int used, String error, String cause) {
        double delay = retrier.intervalSeconds() * Math.pow(retrier.backoffRate(), used);
        if (retrier.maxDelaySeconds().isPresent()) {
            delay = Math.min(delay, retrier.maxDelaySeconds().get());
        }
        if (retrier.jitterStrategy() == Retrier.JitterStrategy.FULL) {
            // deterministic per run and attempt, so a replayed step schedules the same retry
            delay = new Random(requestId(branch).hashCode()).nextDouble() * delay;
        }
        branch.retriesUsed.put(String.valueOf(index), used + 1);
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.RETRY;
        waiting.token = token(branch) + "#retry";
        waiting.at = now.plusMillis((long) (delay * 1000));
        branch.waiting = waiting;
        branch.attempt++;
        effects.add(new Effect.ScheduleTimer(waiting.token, waiting.at));
        ObjectNode details = JSON.objectNode();
        details.put("Error", error);
        details.put("Cause", cause);
        details.put("retry_at", waiting.at.toString());
        details.put("attempt", branch.attempt);
        logLine("ActionRetrying", branch.stateName, "Retrying after " + error + " (retry " + (used + 1) + " of "
                + retrier.maxAttempts() + ")", details);
    }

    /** The branch ended in error with nothing left to catch it: its parent state (or the run) fails. */
    private void failBranch(Branch branch, String error, String cause) {
        if (branch.parent == null) {
            endRun(RunStatus.FAILED, error, cause, "FlowFailed", "The run failed: " + error);
            return;
        }
        Branch parent = run.branches.get(branch.parent);
        run.branches.remove(branch.id);
        handleError(parent, error, cause);
    }

    /** Errors no Catch may handle (States.Runtime, States.DataLimitExceeded) end the whole run. */
    void failRun(String error, String cause) {
        endRun(RunStatus.FAILED, error, cause, "FlowFailed", "The run failed: " + error);
    }

    void endRun(RunStatus status, String error, String cause, String code, String description) {
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

    /** Removes the children of a Parallel/Map branch, cancelling their running actions. */
    private void dropChildren(Branch parent) {
        for (Branch child : List.copyOf(run.branches.values())) {
            if (parent.id.equals(child.parent) && run.branches.containsKey(child.id)) {
                dropChildren(child);
                if (child.waiting != null && child.waiting.kind == WaitKind.ACTION && child.waiting.action.actionId != null) {
                    effects.add(new Effect.CancelAction(child.waiting.action.actionUrl, child.waiting.action.actionId,
                            child.waiting.action.runAs));
                }
                run.branches.remove(child.id);
            }
        }
    }

    /** A retry delay elapsed: run the state again. */
    void retryNow(Branch branch) {
        branch.waiting = null;
    }

    /** A Wait state's time has come. */
    void waitOver(Branch branch) {
        WaitState wait = (WaitState) stateOf(branch);
        logLine("WaitCompleted", wait.name(), "Wait state '" + wait.name() + "' completed", null);
        moveOn(branch, wait.next(), branch.data);
    }

    private static ObjectNode details(String key, JsonNode value) {
        ObjectNode details = JSON.objectNode();
        details.set(key, value);
        return details;
    }
}
