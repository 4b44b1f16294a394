package dev.continuum.placement.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * {@code POST /placements/{id}/decisions}: a decision a provider made itself with its own copy of the planner core
 * (the training provider places its jobs in-process, docs/training.md), written to the planner's decision log so the
 * log and the web UI's devices page show those jobs too. {@code kind} is {@link PlacementBody#TRAINING};
 * {@code runId} the run the job belongs to (null: not known); {@code at} when it was decided (null: when the planner
 * receives it); {@code decision} the core's decision in the log's own JSON ({@link DecisionView#decision()}:
 * {@code type}, {@code requestId} — the job's id —, {@code chosen}, {@code reasons}, ...). The planner keeps it
 * but never acts on it: the job is the provider's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReportedDecision(String kind, String runId, Instant at, JsonNode decision) {}
