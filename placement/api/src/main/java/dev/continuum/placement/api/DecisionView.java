package dev.continuum.placement.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One entry of the planner's decision log. {@code status} is the decision's type ({@link DecisionTypes});
 * {@code cause}: request (a new job), inventory (e.g. its gateway went away), completion or restart;
 * {@code decision} is the planner core's decision in its trace JSON ({@code TraceCodec}: {@code type},
 * {@code chosen} {site, latency}, {@code reasons}, {@code alternatives}, {@code reasonBySite}, ...).
 */
public record DecisionView(long seq, String id, String runId, String kind, String status, String site, Instant at,
                           String cause, JsonNode decision) {}
