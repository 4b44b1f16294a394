package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.domain.EngineError.FieldIssue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The rules of the {@code run} source (chaining, docs/triggers.md#chaining): a trigger fires when a run of another
 * flow reaches one of its {@code statuses}, optionally only runs of {@code flow_id}. One event per (run, status).
 */
public final class RunSources {

    public static final String TYPE = "run";
    /** The statuses a chain may wait for: those a run reaches and leaves no more (and INACTIVE, waiting for a person). */
    public static final Set<String> STATUSES = Set.of("SUCCEEDED", "FAILED", "ENDED", "INACTIVE");
    static final List<String> DEFAULT_STATUSES = List.of("SUCCEEDED");

    private RunSources() {}

    static void check(JsonNode source, List<FieldIssue> issues) {
        JsonNode statuses = source.path("statuses");
        if (!statuses.isMissingNode() && (!statuses.isArray() || statuses.isEmpty())) {
            issues.add(new FieldIssue("/source/statuses", "a non-empty list of " + new java.util.TreeSet<>(STATUSES)));
        } else {
            for (int i = 0; i < statuses.size(); i++) {
                if (!STATUSES.contains(statuses.get(i).asText())) {
                    issues.add(new FieldIssue("/source/statuses/" + i, "'" + statuses.get(i).asText() + "' is not one of "
                            + new java.util.TreeSet<>(STATUSES)));
                }
            }
        }
        JsonNode flow = source.path("flow_id");
        if (!flow.isMissingNode() && parse(flow.asText()).isEmpty()) {
            issues.add(new FieldIssue("/source/flow_id", "the id (a UUID) of the flow whose runs this trigger follows"));
        }
    }

    public static List<String> statuses(Trigger trigger) {
        JsonNode statuses = trigger.spec().source().path("statuses");
        if (!statuses.isArray()) {
            return DEFAULT_STATUSES;
        }
        List<String> named = new ArrayList<>();
        statuses.forEach(status -> named.add(status.asText()));
        return named;
    }

    /** The upstream flow the trigger is limited to, if it names one. */
    public static Optional<UUID> flow(Trigger trigger) {
        return flow(trigger.spec().source());
    }

    public static Optional<UUID> flow(JsonNode source) {
        return parse(source.path("flow_id").asText(null));
    }

    /**
     * Whether a run of {@code flowId} reaching {@code status} is for this trigger. A run the trigger started itself
     * ({@code startedByIt}) never is: a trigger chained on its own flow would otherwise start runs forever.
     */
    public static boolean wants(Trigger trigger, UUID flowId, String status, boolean startedByIt) {
        return !startedByIt && statuses(trigger).contains(status) && flow(trigger).map(flowId::equals).orElse(true);
    }

    /** One event per run and status: a redelivery, or a run reaching INACTIVE again, is a duplicate. */
    public static String dedupKey(UUID runId, String status) {
        return "run:" + runId + ":" + status;
    }

    private static Optional<UUID> parse(String text) {
        try {
            return text == null ? Optional.empty() : Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
