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
    public RunStatus status;
    public JsonNode output;
    public String error;
    public String cause;
    public String inactiveReason;
    /** How many times each state was entered, keyed by branch id + "/" + state name; makes request ids unique. */
    public Map<String, Integer> visits = new LinkedHashMap<>();
    /** Every live line of execution: the root flow ("") and the branches of running Parallel/Map states. */
    public Map<String, Branch> branches = new LinkedHashMap<>();

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
    }

    static final class Waiting {
        public WaitKind kind;
        public String token;
        /** When a timer fires (TIMER, RETRY). */
        public java.time.Instant at;
        public ActionCall action;
        public Join join;
    }

    enum WaitKind { ACTION, TIMER, RETRY, JOIN }

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
    }
}
