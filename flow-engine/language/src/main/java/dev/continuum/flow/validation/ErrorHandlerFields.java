package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.Retrier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Retry and Catch, which Action, Parallel and Map states share. */
final class ErrorHandlerFields {

    private static final Set<String> CATCH_FIELDS = Set.of("ErrorEquals", "Next", "ResultPath");
    private static final Set<String> RETRY_FIELDS = Set.of("ErrorEquals", "IntervalSeconds", "MaxAttempts",
            "BackoffRate", "MaxDelaySeconds", "JitterStrategy");

    private final Issues issues;
    private final StateFields fields;

    ErrorHandlerFields(Issues issues, StateFields fields) {
        this.issues = issues;
        this.fields = fields;
    }

    List<Catcher> catchers(StateNode state) {
        JsonNode node = state.node();
        String pointer = state.pointer();
        List<Catcher> catchers = new ArrayList<>();
        JsonNode list = node.get("Catch");
        if (list == null) {
            return catchers;
        }
        if (!list.isArray()) {
            issues.add(pointer + "/Catch", "Catch must be a list of catchers, each with ErrorEquals and Next.");
            return catchers;
        }
        for (int i = 0; i < list.size(); i++) {
            String catchPointer = pointer + "/Catch/" + i;
            JsonNode catcher = list.get(i);
            if (!catcher.isObject()) {
                issues.add(catchPointer, "A catcher must be an object with ErrorEquals and Next.");
                continue;
            }
            int before = issues.count();
            issues.unknownFields(catcher, catchPointer, CATCH_FIELDS, "a catcher");
            List<String> errors = errorEquals(catcher, catchPointer, i == list.size() - 1);
            JsonNode next = catcher.get("Next");
            if (next == null || !next.isTextual()) {
                issues.add(catchPointer + "/Next", "A catcher needs Next: the state to go to when it catches.");
            } else {
                state.references().add(new FlowReader.Reference(next.asText(), catchPointer + "/Next"));
            }
            String resultPath = fields.resultPath(catcher, catchPointer);
            if (issues.count() == before) {
                catchers.add(new Catcher(errors, next.asText(), resultPath));
            }
        }
        return catchers;
    }

    List<Retrier> retriers(JsonNode node, String pointer) {
        List<Retrier> retriers = new ArrayList<>();
        JsonNode list = node.get("Retry");
        if (list == null) {
            return retriers;
        }
        if (!list.isArray()) {
            issues.add(pointer + "/Retry", "Retry must be a list of retriers, each with ErrorEquals.");
            return retriers;
        }
        for (int i = 0; i < list.size(); i++) {
            String retryPointer = pointer + "/Retry/" + i;
            JsonNode retrier = list.get(i);
            if (!retrier.isObject()) {
                issues.add(retryPointer, "A retrier must be an object with ErrorEquals.");
                continue;
            }
            int before = issues.count();
            issues.unknownFields(retrier, retryPointer, RETRY_FIELDS, "a retrier");
            List<String> errors = errorEquals(retrier, retryPointer, i == list.size() - 1);
            double interval = number(retrier, "IntervalSeconds", retryPointer, Retrier.DEFAULT_INTERVAL_SECONDS, 1,
                    true);
            double attempts = number(retrier, "MaxAttempts", retryPointer, Retrier.DEFAULT_MAX_ATTEMPTS, 0, true);
            double backoff = number(retrier, "BackoffRate", retryPointer, Retrier.DEFAULT_BACKOFF_RATE, 1, false);
            Optional<Double> maxDelay = retrier.has("MaxDelaySeconds")
                    ? Optional.of(number(retrier, "MaxDelaySeconds", retryPointer, 0, 1, true))
                    : Optional.empty();
            Retrier.JitterStrategy jitter = Retrier.JitterStrategy.NONE;
            JsonNode jitterNode = retrier.get("JitterStrategy");
            if (jitterNode != null) {
                if (!jitterNode.isTextual() || !Set.of("FULL", "NONE").contains(jitterNode.asText())) {
                    issues.add(retryPointer + "/JitterStrategy", "JitterStrategy must be \"FULL\" or \"NONE\".");
                } else {
                    jitter = Retrier.JitterStrategy.valueOf(jitterNode.asText());
                }
            }
            if (issues.count() == before) {
                retriers.add(new Retrier(errors, interval, (int) attempts, backoff, maxDelay, jitter));
            }
        }
        return retriers;
    }

    private double number(JsonNode object, String field, String pointer, double fallback, double minimum,
                          boolean whole) {
        JsonNode value = object.get(field);
        if (value == null) {
            return fallback;
        }
        boolean ok = value.isNumber() && (!whole || value.isIntegralNumber()) && value.asDouble() >= minimum;
        if (!ok) {
            issues.add(pointer + "/" + field, field + " must be " + (whole ? "a whole number" : "a number")
                    + " of at least " + (whole ? String.valueOf((long) minimum) : String.valueOf(minimum)) + ".");
            return fallback;
        }
        return value.asDouble();
    }

    private List<String> errorEquals(JsonNode object, String pointer, boolean lastInList) {
        List<String> errors = new ArrayList<>();
        JsonNode list = object.get("ErrorEquals");
        if (list == null || !list.isArray() || list.isEmpty()) {
            issues.add(pointer + "/ErrorEquals", "ErrorEquals must be a non-empty list of error names, "
                    + "e.g. [\"ActionFailedException\"] or [\"States.ALL\"].");
            return errors;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode error = list.get(i);
            if (!error.isTextual() || error.asText().isEmpty()) {
                issues.add(pointer + "/ErrorEquals/" + i, "Each error name must be a non-empty string.");
            } else {
                errors.add(error.asText());
            }
        }
        if (errors.contains(ErrorNames.ALL) && (errors.size() > 1 || !lastInList)) {
            issues.add(pointer + "/ErrorEquals", "States.ALL must appear alone, in the last retrier or catcher.");
        }
        return errors;
    }
}
