package dev.continuum.flow.run;

import java.util.List;

/**
 * Who runs what. Flows read it as {@code $._context} (and {@code $$.} in paths) with the fields
 * run_id, flow_id, flow_version, user_id, username, label and tags. {@code notifyOn} and {@code notifyEmail} are
 * the run's activity_notification_policy and the owner's address; flows do not see them.
 */
public record RunContext(String runId, String flowId, int flowVersion, String userId, String label,
                         List<String> tags, List<String> notifyOn, String notifyEmail) {

    public RunContext {
        tags = tags == null ? List.of() : List.copyOf(tags);
        notifyOn = notifyOn == null ? null : List.copyOf(notifyOn);
    }

    /** A run with Globus' default notification policy (INACTIVE) and no e-mail address. */
    public RunContext(String runId, String flowId, int flowVersion, String userId, String label, List<String> tags) {
        this(runId, flowId, flowVersion, userId, label, tags, null, null);
    }
}
