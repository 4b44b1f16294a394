package dev.continuum.placement.core.planner.trace;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.continuum.placement.api.DecisionTypes;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;

import java.io.UncheckedIOException;
import java.util.List;

/**
 * Trace lines as JSON: records as objects, sealed types with a {@code "type"} name. The type names live in
 * mix-ins here, so the planner's own types carry no JSON annotations; a decision's type names are the planner
 * contract's ({@link DecisionTypes}), which the service's log and its callers read.
 */
public final class TraceCodec {
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = TraceEvent.Header.class, name = "header"),
            @JsonSubTypes.Type(value = TraceEvent.InventoryChanged.class, name = "inventory"),
            @JsonSubTypes.Type(value = TraceEvent.Arrived.class, name = "arrival"),
            @JsonSubTypes.Type(value = TraceEvent.Observed.class, name = "observation"),
            @JsonSubTypes.Type(value = TraceEvent.Restore.class, name = "restore"),
            @JsonSubTypes.Type(value = TraceEvent.Decided.class, name = "decisions"),
            @JsonSubTypes.Type(value = TraceEvent.Refused.class, name = "refused")})
    private interface EventTypes {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = Observation.JobCompleted.class, name = "completed"),
            @JsonSubTypes.Type(value = Observation.TransferMeasured.class, name = "transfer"),
            @JsonSubTypes.Type(value = Observation.InputMoved.class, name = "input-moved"),
            @JsonSubTypes.Type(value = Observation.Tick.class, name = "tick")})
    private interface ObservationTypes {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = PlacementDecision.Placed.class, name = DecisionTypes.PLACED),
            @JsonSubTypes.Type(value = PlacementDecision.Queued.class, name = DecisionTypes.QUEUED),
            @JsonSubTypes.Type(value = PlacementDecision.Unplaceable.class, name = DecisionTypes.UNPLACEABLE),
            @JsonSubTypes.Type(value = PlacementDecision.Preempted.class, name = DecisionTypes.PREEMPTED),
            @JsonSubTypes.Type(value = PlacementDecision.Moved.class, name = DecisionTypes.MOVED)})
    private interface DecisionNames {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .addMixIn(TraceEvent.class, EventTypes.class)
            .addMixIn(Observation.class, ObservationTypes.class)
            .addMixIn(PlacementDecision.class, DecisionNames.class)
            .disable(SerializationFeature.INDENT_OUTPUT);

    private TraceCodec() {
    }

    /** One line, without the newline. */
    public static String write(TraceEvent event) {
        return json(event, TraceEvent.class);
    }

    public static TraceEvent read(String line) {
        try {
            JsonNode event = MAPPER.readTree(line);
            JsonNode o = event == null ? null : event.get("observation");
            if (o instanceof ObjectNode completed && "completed".equals(completed.path("type").asText())) {
                // times a completion recorded before they were measured (overhead 2026-11-27, queue 2026-11-28) are
                // not measured, not 0 ms: a replay must not learn from them what the recording did not
                for (String field : List.of("overheadMillis", "queuedMillis")) {
                    if (!completed.has(field)) {
                        completed.put(field, Observation.JobCompleted.NOT_MEASURED);
                    }
                }
            }
            return MAPPER.treeToValue(event, TraceEvent.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not a planner trace line: " + e.getOriginalMessage(), e);
        }
    }

    /** One decision as JSON, with its {@code "type"}: how the planner service stores and shows decisions. */
    public static String writeDecision(PlacementDecision decision) {
        return json(decision, PlacementDecision.class);
    }

    /**
     * One decision as a JSON tree, in {@link #writeDecision}'s shape: what the planner contract's {@code decision}
     * fields hold (the service's views, a pushed re-placement, a provider's reported decision).
     */
    public static com.fasterxml.jackson.databind.JsonNode decisionTree(PlacementDecision decision) {
        try {
            return MAPPER.readTree(writeDecision(decision));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PlacementDecision readDecision(String json) {
        return parse(json, PlacementDecision.class, "a placement decision");
    }

    /** A request as JSON, in the trace's shape (the planner service keeps it beside its decisions). */
    public static String writeRequest(PlacementRequest request) {
        return json(request, PlacementRequest.class);
    }

    public static PlacementRequest readRequest(String json) {
        return parse(json, PlacementRequest.class, "a placement request");
    }

    /** Written as {@code type}, so a sealed interface's value carries its type name. */
    private static String json(Object value, Class<?> type) {
        try {
            return MAPPER.writerFor(type).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T parse(String json, Class<T> type, String what) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not " + what + ": " + e.getOriginalMessage(), e);
        }
    }
}
