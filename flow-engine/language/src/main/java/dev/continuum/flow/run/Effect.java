package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** Something the engine must do after it has stored the run state that asked for it. */
public sealed interface Effect {

    /** POST {actionUrl}/run; answer with ActionStarted or ActionCallFailed carrying {@code token}. */
    record StartAction(String token, String stateName, String actionUrl, String requestId, JsonNode body,
                       String label, List<String> tags, String runAs, String actionScope) implements Effect {
    }

    /**
     * GET {actionUrl}/{actionId}/status at {@code at}; answer with ActionPolled carrying {@code token}.
     * {@code runAs} (null: the run's user) is the identity the action was started with; every call about it uses it too.
     */
    record PollAction(String token, String actionUrl, String actionId, Instant at, String runAs) implements Effect {
        public PollAction(String token, String actionUrl, String actionId, Instant at) {
            this(token, actionUrl, actionId, at, null);
        }
    }

    /** POST {actionUrl}/{actionId}/cancel; no answer expected. */
    record CancelAction(String actionUrl, String actionId, String runAs) implements Effect {
        public CancelAction(String actionUrl, String actionId) {
            this(actionUrl, actionId, null);
        }
    }

    /** POST {actionUrl}/{actionId}/release once the run no longer needs the action's record. */
    record ReleaseAction(String actionUrl, String actionId, String runAs) implements Effect {
        public ReleaseAction(String actionUrl, String actionId) {
            this(actionUrl, actionId, null);
        }
    }

    /** Answer with TimerFired carrying {@code token} at {@code at}. */
    record ScheduleTimer(String token, Instant at) implements Effect {
    }
}
