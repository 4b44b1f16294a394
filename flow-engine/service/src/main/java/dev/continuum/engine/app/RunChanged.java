package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.UUID;

/**
 * A committed change of a run, as published on the run-event stream (docs/triggers.md#run-events). Small and free of
 * anything secret or personal (no input, output, cause or e-mail address), because an operator may send the stream to
 * a broker others subscribe to; a consumer that needs more reads the run (GET /runs/{id}), which stays the record.
 *
 * @param previousStatus the status before this change; null when the run was just started
 * @param error          the error name of a FAILED run (e.g. ActionFailedException), never its cause
 * @param notifyOwner       the run's activity_notification_policy names this status and the status changed
 * @param at             when the change was committed
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunChanged(UUID runId, UUID flowId, int flowVersion, String owner, String label, String status,
                        String previousStatus, String error, boolean notifyOwner, Instant at) {

    /** The change from {@code before} (null at start) to {@code after}, committed at {@code at}. */
    public static RunChanged of(UUID runId, RunState before, RunState after, Instant at) {
        String status = after.status().name();
        String previous = before == null ? null : before.status().name();
        boolean statusChanged = !status.equals(previous);
        return new RunChanged(runId, UUID.fromString(after.flowId()), after.flowVersion(), after.userId(), after.label(), status,
                previous, after.status() == dev.continuum.flow.run.RunStatus.FAILED ? after.error().orElse(null) : null,
                statusChanged && after.notifyOn().contains(status), at);
    }

    /** The run entered a new status with this change (a start counts). */
    public boolean statusChanged() {
        return !status.equals(previousStatus);
    }
}
