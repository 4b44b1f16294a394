package dev.continuum.flow.run;

import java.util.List;

/**
 * Who runs what. Flows read it as {@code $._context} (and {@code $$.} in paths) with the fields
 * run_id, flow_id, flow_version, user_id, username, label and tags.
 */
public record RunContext(String runId, String flowId, int flowVersion, String userId, String label,
                         List<String> tags) {

    public RunContext {
        tags = tags == null ? List.of() : List.copyOf(tags);
    }
}
