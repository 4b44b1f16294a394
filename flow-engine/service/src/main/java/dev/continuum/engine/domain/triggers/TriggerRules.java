package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.expr.Expressions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The pure rules of triggers: what a valid one is, and what an event makes of it. */
public final class TriggerRules {

    /** Sources a trigger may name; each has an adapter that turns its messages into {@link TriggerEvent}s. */
    public static final Set<String> SOURCES = Set.of("api", "webhook", "timer", "file", "mqtt", "amqp", RunSources.TYPE);
    static final int MAX_TITLE = 128;

    private TriggerRules() {}

    /** Every problem of a draft, each naming its field (RFC 6901 pointer into the request body). */
    public static List<FieldIssue> check(TriggerDraft draft) {
        List<FieldIssue> issues = new ArrayList<>();
        if (draft.title() == null || draft.title().isBlank() || draft.title().length() > MAX_TITLE) {
            issues.add(new FieldIssue("/title", "a title of 1 to " + MAX_TITLE + " characters is required"));
        }
        JsonNode source = draft.source();
        if (source == null || !source.isObject()) {
            issues.add(new FieldIssue("/source", "an object with a 'type' is required"));
        } else if (!SOURCES.contains(source.path("type").asText())) {
            issues.add(new FieldIssue("/source/type", "must be one of " + new java.util.TreeSet<>(SOURCES)));
        } else if (BrokerMessages.fedByBroker(source.path("type").asText())) {
            BrokerMessages.check(source, issues);
        } else if (source.path("type").asText().equals(RunSources.TYPE)) {
            RunSources.check(source, issues);
        }
        if (!draft.runAs().equals(TriggerDraft.RUN_AS_OWNER) && !draft.runsAsServiceAccount()) {
            issues.add(new FieldIssue("/run_as", "'owner' (default) or 'service_account'"));
        }
        if (draft.flowId() == null) {
            issues.add(new FieldIssue("/flow_id", "the id of the flow to start is required"));
        }
        if (draft.flowVersion() != null && draft.flowVersion() < 1) {
            issues.add(new FieldIssue("/flow_version", "a version number from 1, or absent for the latest version"));
        }
        if (draft.filter() != null) {
            Expressions.checkSyntax(draft.filter()).ifPresent(e -> issues.add(new FieldIssue("/filter", e.getMessage())));
        }
        if (draft.inputTemplate() != null && !draft.inputTemplate().isObject()) {
            issues.add(new FieldIssue("/input_template", "must be a JSON object (a Parameters template)"));
        } else if (draft.inputTemplate() != null) {
            checkExpressions(draft.inputTemplate(), "/input_template", issues);
        }
        return issues;
    }

    private static void checkExpressions(JsonNode template, String pointer, List<FieldIssue> issues) {
        template.fields().forEachRemaining(field -> {
            String at = pointer + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
            if (field.getKey().endsWith(Templates.EXPRESSION_SUFFIX)) {
                Expressions.checkSyntax(field.getValue().asText()).ifPresent(e -> issues.add(new FieldIssue(at, e.getMessage())));
            } else if (field.getKey().endsWith(Templates.PATH_SUFFIX) && !field.getValue().asText().startsWith("$")) {
                issues.add(new FieldIssue(at, "a path starts with '$'"));
            } else if (field.getValue().isObject()) {
                checkExpressions(field.getValue(), at, issues);
            }
        });
    }

    /** What an event makes of the trigger: a run input, or why it starts nothing. */
    public sealed interface Decision {
        record Start(JsonNode input) implements Decision {}

        record Skip(EventOutcome outcome) implements Decision {}
    }

    public static Decision decide(Trigger trigger, TriggerEvent event) {
        JsonNode payload = event.payload();
        if (payload == null || !payload.isObject()) {
            return new Decision.Skip(new EventOutcome.Rejected("the event is not a JSON object"));
        }
        JsonNode context = trigger.context(event);
        String filter = trigger.spec().filter();
        try {
            if (filter != null) {
                JsonNode passed = Templates.evaluateExpression(filter, Templates.withContext(payload, context), "filter");
                if (!passed.isBoolean()) {
                    return new Decision.Skip(new EventOutcome.Rejected("filter: gave " + passed + ", not true or false"));
                }
                if (!passed.booleanValue()) {
                    return new Decision.Skip(new EventOutcome.FilteredOut("filter '" + filter + "' is false"));
                }
            }
            JsonNode template = trigger.spec().inputTemplate();
            JsonNode input = template == null ? payload.deepCopy()
                    : Templates.evaluate(template, payload, context, "input_template").value();
            return new Decision.Start(input == null ? JsonNodeFactory.instance.objectNode() : input);
        } catch (DataException e) {
            return new Decision.Skip(new EventOutcome.Rejected(e.getMessage()));
        }
    }

    /**
     * The id of the one run an event may start: derived from trigger and dedup key, so a redelivery that gets
     * past every other check still meets the runs table's primary key.
     */
    public static UUID runIdFor(UUID triggerId, String dedupKey) {
        return UUID.nameUUIDFromBytes((triggerId + "\n" + dedupKey).getBytes(StandardCharsets.UTF_8));
    }
}
