package dev.continuum.provider.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The state of one action as a provider reports it ({@code GET /{action_id}/status} and the
 * answer of every other operation).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ActionStatus(
        @JsonProperty("action_id") String actionId,
        @JsonProperty("status") ActionState status,
        @JsonProperty("creator_id") String creatorId,
        @JsonProperty("label") String label,
        @JsonProperty("manage_by") List<String> manageBy,
        @JsonProperty("monitor_by") List<String> monitorBy,
        @JsonProperty("start_time") Instant startTime,
        @JsonProperty("completion_time") Instant completionTime,
        @JsonProperty("release_after") String releaseAfter,
        @JsonProperty("display_status") String displayStatus,
        @JsonProperty("details") JsonNode details) {

    public ActionStatus {
        Objects.requireNonNull(actionId, "action_id");
        Objects.requireNonNull(status, "status");
        manageBy = manageBy == null ? List.of() : List.copyOf(manageBy);
        monitorBy = monitorBy == null ? List.of() : List.copyOf(monitorBy);
        // Globus requires details; an empty object is the neutral value.
        details = details == null || details.isNull() ? JsonNodeFactory.instance.objectNode() : details;
    }

    /** Same action, now in {@code newState} with the given presentation and details. */
    public ActionStatus with(ActionState newState, String newDisplayStatus, JsonNode newDetails) {
        return new ActionStatus(actionId, newState, creatorId, label, manageBy, monitorBy, startTime,
                completionTime, releaseAfter, newDisplayStatus, newDetails);
    }

    /** Same action, finished at {@code at}. */
    public ActionStatus completedAt(Instant at) {
        return new ActionStatus(actionId, status, creatorId, label, manageBy, monitorBy, startTime,
                at, releaseAfter, displayStatus, details);
    }
}
