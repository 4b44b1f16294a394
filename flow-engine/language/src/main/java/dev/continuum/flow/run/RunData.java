package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable form of a run, exactly as stored (via {@link RunState#toJson()}). Mutable only inside
 * one interpreter step, which works on a copy; public fields keep the JSON mapping obvious.
 */
final class RunData {
    public String runId;
    public String flowId;
    public int flowVersion;
    public String userId;
    public String label;
    public List<String> tags = new ArrayList<>();
    /**
     * Globus' activity_notification_policy: the statuses (INACTIVE, SUCCEEDED, FAILED) whose arrival the owner is told
     * of; null means Globus' default, INACTIVE only. The engine sends the notices; the interpreter only keeps the wish.
     */
    public List<String> notifyOn;
    /** Where e-mail notices go (the owner's address when known at start); null: no e-mail. */
    public String notifyEmail;
    public RunStatus status;
    /** 1 for the first attempt; each redrive of a FAILED run starts the next. */
    public int attempt;
    /** Where the run's main line stood when it failed, and its input there: what a redrive starts from by default. */
    public String failedState;
    public JsonNode failedInput;
    public JsonNode output;
    public String error;
    public String cause;
    public String inactiveReason;
    /** How many times each state was entered, keyed by branch id + "/" + state name; makes request ids unique. */
    public Map<String, Integer> visits = new LinkedHashMap<>();
    /** States entered so far, retries included; the run fails at {@link InterpreterOptions#maxTransitions()}. */
    public int transitions;
    /** Every live line of execution: the root flow ("") and the branches of running Parallel/Map states. */
    public Map<String, Branch> branches = new LinkedHashMap<>();

    /**
     * A deep copy, field by field: the interpreter copies the state on every step, and a JSON round
     * trip for that was the engine's single biggest CPU cost. A new field must be copied here too;
     * {@code RunDataCopyTest} compares this copy with the JSON round trip on states that use every field.
     */
    RunData copy() {
        RunData c = new RunData();
        c.runId = runId;
        c.flowId = flowId;
        c.flowVersion = flowVersion;
        c.userId = userId;
        c.label = label;
        c.tags = new ArrayList<>(tags);
        c.notifyOn = notifyOn == null ? null : new ArrayList<>(notifyOn);
        c.notifyEmail = notifyEmail;
        c.status = status;
        c.attempt = attempt;
        c.failedState = failedState;
        c.failedInput = node(failedInput);
        c.output = node(output);
        c.error = error;
        c.cause = cause;
        c.inactiveReason = inactiveReason;
        c.visits = new LinkedHashMap<>(visits);
        c.transitions = transitions;
        c.branches = new LinkedHashMap<>();
        branches.forEach((id, branch) -> c.branches.put(id, branch == null ? null : branch.copy()));
        return c;
    }

    private static JsonNode node(JsonNode node) {
        return node == null ? null : node.deepCopy();
    }

    private static List<JsonNode> nodes(List<JsonNode> list) {
        List<JsonNode> c = new ArrayList<>(list.size());
        list.forEach(n -> c.add(node(n)));
        return c;
    }

    /** One line of execution, sitting in one state. */
    static final class Branch {
        public String id;
        /** Id of the branch running the Parallel or Map state that spawned this one; null for the root. */
        public String parent;
        /** Position among the parent's children: the branch index of a Parallel, the item index of a Map. */
        public int index;
        public String stateName;
        /** The state's input: the run's data document as this branch sees it. */
        public JsonNode data;
        public int visit;
        /** Times the current state has been retried, over all its retriers. */
        public int attempt;
        /** Retries used per retrier (by position in the state's Retry list). */
        public Map<String, Integer> retriesUsed = new LinkedHashMap<>();
        /** What the branch waits for; null while it can move on. */
        public Waiting waiting;

        Branch copy() {
            Branch c = new Branch();
            c.id = id;
            c.parent = parent;
            c.index = index;
            c.stateName = stateName;
            c.data = node(data);
            c.visit = visit;
            c.attempt = attempt;
            c.retriesUsed = new LinkedHashMap<>(retriesUsed);
            c.waiting = waiting == null ? null : waiting.copy();
            return c;
        }
    }

    static final class Waiting {
        public WaitKind kind;
        public String token;
        /** When a timer fires (TIMER, RETRY, YIELD). */
        public java.time.Instant at;
        public ActionCall action;
        public Join join;

        Waiting copy() {
            Waiting c = new Waiting();
            c.kind = kind;
            c.token = token;
            c.at = at;
            c.action = action == null ? null : action.copy();
            c.join = join == null ? null : join.copy();
            return c;
        }
    }

    /** YIELD: the step used its transition budget; the branch moves on in the next turn (a timer due at once). */
    enum WaitKind { ACTION, TIMER, RETRY, JOIN, YIELD }

    static final class ActionCall {
        public String requestId;
        public String actionUrl;
        public JsonNode body;
        public String runAs;
        public String actionScope;
        public String actionId;
        public String status;
        public String displayStatus;
        public java.time.Instant deadline;
        public int polls;
        public java.time.Instant nextPollAt;
        /** The provider reported INACTIVE; polling resumes on ResumeRequested. */
        public boolean inactive;

        ActionCall copy() {
            ActionCall c = new ActionCall();
            c.requestId = requestId;
            c.actionUrl = actionUrl;
            c.body = node(body);
            c.runAs = runAs;
            c.actionScope = actionScope;
            c.actionId = actionId;
            c.status = status;
            c.displayStatus = displayStatus;
            c.deadline = deadline;
            c.polls = polls;
            c.nextPollAt = nextPollAt;
            c.inactive = inactive;
            return c;
        }
    }

    /** A Parallel or Map state collecting the outputs of its children. */
    static final class Join {
        public int total;
        public int started;
        public int finished;
        /** The input each Parallel branch gets, or the items of a Map. */
        public JsonNode input;
        public List<JsonNode> items = new ArrayList<>();
        public List<JsonNode> results = new ArrayList<>();

        Join copy() {
            Join c = new Join();
            c.total = total;
            c.started = started;
            c.finished = finished;
            c.input = node(input);
            c.items = nodes(items);
            c.results = nodes(results);
            return c;
        }
    }
}
