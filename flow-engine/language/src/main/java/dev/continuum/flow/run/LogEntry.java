package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One line of a run's log. Codes: FlowStarted, ActionStarted, ActionPolled, ActionCompleted,
 * ActionFailed, ActionRetrying, PassCompleted, ChoiceCompleted, WaitStarted, WaitCompleted,
 * ExpressionEvalCompleted, ParallelStarted, ParallelCompleted, MapStarted, MapCompleted,
 * StateCaught, FlowSucceeded, FlowFailed, FlowCanceled, FlowInactive, FlowResumed.
 * Values named in {@code __Private_Parameters} are redacted in {@code details}.
 */
public record LogEntry(String code, String stateName, String description, JsonNode details, Instant time) {
}
