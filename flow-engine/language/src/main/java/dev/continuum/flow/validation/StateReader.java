package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import dev.continuum.flow.model.WaitState;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads one state: its Type, its fields for that type, and the transitions it makes. */
final class StateReader {

    static final Set<String> KNOWN_TYPES =
            Set.of("Action", "Pass", "Choice", "Wait", "Fail", "ExpressionEval", "Parallel", "Map");

    private static final Set<String> ACTION_FIELDS = Set.of("Type", "Comment", "ActionUrl", "Parameters",
            "InputPath", "ResultPath", "WaitTime", "ExceptionOnActionFailure", "RunAs", "ActionScope", "Catch",
            "Retry", "Next", "End");
    private static final Set<String> PASS_FIELDS =
            Set.of("Type", "Comment", "Parameters", "Result", "InputPath", "ResultPath", "Next", "End");
    private static final Set<String> CHOICE_FIELDS = Set.of("Type", "Comment", "Choices", "Default");
    private static final Set<String> WAIT_FIELDS =
            Set.of("Type", "Comment", "Seconds", "Timestamp", "SecondsPath", "TimestampPath", "Next", "End");
    private static final Set<String> FAIL_FIELDS =
            Set.of("Type", "Comment", "Error", "Cause", "ErrorPath", "CausePath");
    private static final Set<String> EXPRESSION_EVAL_FIELDS =
            Set.of("Type", "Comment", "Parameters", "ResultPath", "Next", "End");
    private static final Set<String> PARALLEL_FIELDS = Set.of("Type", "Comment", "Branches", "InputPath",
            "Parameters", "ResultPath", "Retry", "Catch", "Next", "End");
    private static final Set<String> MAP_FIELDS = Set.of("Type", "Comment", "ItemsPath", "Iterator",
            "ItemProcessor", "MaxConcurrency", "InputPath", "Parameters", "ItemSelector", "ResultPath", "Retry",
            "Catch", "Next", "End");
    private static final Set<String> CATCH_FIELDS = Set.of("ErrorEquals", "Next", "ResultPath");
    private static final Set<String> RETRY_FIELDS = Set.of("ErrorEquals", "IntervalSeconds", "MaxAttempts",
            "BackoffRate", "MaxDelaySeconds", "JitterStrategy");
    private static final Set<String> ITEM_PROCESSOR_FIELDS = Set.of("StartAt", "States", "Comment", "ProcessorConfig");

    private final Issues issues;
    private final FlowReader flows;
    private final TemplateChecker templates;
    private final ChoiceRuleReader choiceRules;

    StateReader(Issues issues, FlowReader flows) {
        this.issues = issues;
        this.flows = flows;
        this.templates = new TemplateChecker(issues);
        this.choiceRules = new ChoiceRuleReader(issues);
    }

    /** Returns the state, or null when it is broken; adds its transitions to {@code references}. */
    State read(String name, JsonNode node, String pointer, List<FlowReader.Reference> references) {
        if (!node.isObject()) {
            issues.add(pointer, "State '" + name + "' must be a JSON object with a Type.");
            return null;
        }
        JsonNode type = node.get("Type");
        if (type == null) {
            issues.add(pointer + "/Type", "State '" + name + "' has no Type; use one of " + typeList() + ".");
            return null;
        }
        String typeName = type.asText();
        if (!type.isTextual() || !KNOWN_TYPES.contains(typeName)) {
            String hint = "ActionWait".equals(typeName)
                    ? " ActionWait is legacy syntax: an Action state now waits for its action to finish."
                    : "";
            issues.add(pointer + "/Type", "Unknown state Type '" + typeName + "'; use one of " + typeList() + "."
                    + hint);
            return null;
        }
        Optional<String> comment = optionalString(node, "Comment", pointer);
        return switch (typeName) {
            case "Action" -> action(name, node, pointer, comment, references);
            case "Pass" -> pass(name, node, pointer, comment, references);
            case "Choice" -> choice(name, node, pointer, comment, references);
            case "Wait" -> waitState(name, node, pointer, comment, references);
            case "Fail" -> fail(name, node, pointer, comment);
            case "ExpressionEval" -> expressionEval(name, node, pointer, comment, references);
            case "Parallel" -> parallel(name, node, pointer, comment, references);
            case "Map" -> map(name, node, pointer, comment, references);
            default -> throw new IllegalStateException("unhandled type " + typeName);
        };
    }

    private static String typeList() {
        return "Action, Pass, Choice, Wait, Fail, ExpressionEval, Parallel, Map";
    }

    private State action(String name, JsonNode node, String pointer, Optional<String> comment,
                         List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, ACTION_FIELDS, "an Action state");
        String actionUrl = actionUrl(node, pointer);
        if (!node.has("Parameters") && !node.has("InputPath")) {
            issues.add(pointer, "Action state '" + name
                    + "' needs Parameters (or InputPath) to build the body sent to the action.");
        }
        Optional<JsonNode> parameters = parameters(node, pointer, false);
        DataPaths paths = dataPaths(node, pointer);
        Duration waitTime = ActionState.DEFAULT_WAIT_TIME;
        JsonNode wait = node.get("WaitTime");
        if (wait != null) {
            if (!wait.isIntegralNumber() || wait.asLong() < 1) {
                issues.add(pointer + "/WaitTime", "WaitTime must be a whole number of seconds, at least 1.");
            } else {
                waitTime = Duration.ofSeconds(wait.asLong());
            }
        }
        boolean exceptionOnFailure = true;
        JsonNode onFailure = node.get("ExceptionOnActionFailure");
        if (onFailure != null) {
            if (!onFailure.isBoolean()) {
                issues.add(pointer + "/ExceptionOnActionFailure",
                        "ExceptionOnActionFailure must be true or false (a JSON boolean, not a string).");
            } else {
                exceptionOnFailure = onFailure.asBoolean();
            }
        }
        Optional<String> runAs = optionalString(node, "RunAs", pointer);
        Optional<String> scope = optionalString(node, "ActionScope", pointer);
        List<Retrier> retry = retriers(node, pointer);
        List<Catcher> catchers = catchers(node, pointer, references);
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before) {
            return null;
        }
        return new ActionState(name, comment, actionUrl, paths, parameters, waitTime, exceptionOnFailure, runAs,
                scope, retry, catchers, next);
    }

    private String actionUrl(JsonNode node, String pointer) {
        JsonNode url = node.get("ActionUrl");
        if (url == null) {
            issues.add(pointer + "/ActionUrl", "ActionUrl is required: the base URL of the action provider.");
            return null;
        }
        String text = url.asText();
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            if (!url.isTextual() || scheme == null || !(scheme.equals("http") || scheme.equals("https"))
                    || uri.getHost() == null) {
                issues.add(pointer + "/ActionUrl", "ActionUrl '" + text
                        + "' must be an absolute http or https URL, e.g. https://actions.example.org/transfer.");
            }
        } catch (URISyntaxException e) {
            issues.add(pointer + "/ActionUrl", "ActionUrl '" + text + "' is not a valid URL: " + e.getReason() + ".");
        }
        return text;
    }

    private State pass(String name, JsonNode node, String pointer, Optional<String> comment,
                       List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, PASS_FIELDS, "a Pass state");
        Optional<JsonNode> parameters = parameters(node, pointer, false);
        DataPaths paths = dataPaths(node, pointer);
        Optional<JsonNode> result = Optional.ofNullable(node.get("Result")).map(JsonNode::deepCopy);
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before) {
            return null;
        }
        return new PassState(name, comment, paths, parameters, result, next);
    }

    private State choice(String name, JsonNode node, String pointer, Optional<String> comment,
                         List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, CHOICE_FIELDS, "a Choice state");
        List<ChoiceState.Branch> branches = new ArrayList<>();
        JsonNode choices = node.get("Choices");
        if (choices == null) {
            issues.add(pointer + "/Choices", "A Choice state needs Choices: a list of rules, each with a Next.");
        } else if (!choices.isArray() || choices.isEmpty()) {
            issues.add(pointer + "/Choices", "Choices must be a non-empty list of rules, each with a Next.");
        } else {
            for (int i = 0; i < choices.size(); i++) {
                String choicePointer = pointer + "/Choices/" + i;
                JsonNode choice = choices.get(i);
                JsonNode next = choice.get("Next");
                if (choice.isObject() && (next == null || !next.isTextual())) {
                    issues.add(choicePointer + "/Next", "Each choice needs a Next naming the state to go to.");
                } else if (next != null) {
                    references.add(new FlowReader.Reference(next.asText(), choicePointer + "/Next"));
                }
                var rule = choiceRules.read(choice, choicePointer, true);
                if (rule != null && next != null) {
                    branches.add(new ChoiceState.Branch(rule, next.asText()));
                }
            }
        }
        Optional<String> defaultNext = Optional.empty();
        JsonNode defaultNode = node.get("Default");
        if (defaultNode != null) {
            if (!defaultNode.isTextual()) {
                issues.add(pointer + "/Default", "Default must name a state (a string).");
            } else {
                defaultNext = Optional.of(defaultNode.asText());
                references.add(new FlowReader.Reference(defaultNode.asText(), pointer + "/Default"));
            }
        }
        if (issues.count() > before) {
            return null;
        }
        return new ChoiceState(name, comment, branches, defaultNext);
    }

    private State waitState(String name, JsonNode node, String pointer, Optional<String> comment,
                            List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, WAIT_FIELDS, "a Wait state");
        List<String> given = new ArrayList<>();
        for (String field : List.of("Seconds", "Timestamp", "SecondsPath", "TimestampPath")) {
            if (node.has(field)) {
                given.add(field);
            }
        }
        WaitState.Until until = null;
        if (given.size() != 1) {
            issues.add(pointer, "A Wait state needs exactly one of Seconds, Timestamp, SecondsPath or TimestampPath"
                    + (given.isEmpty() ? "; it has none." : "; it has " + String.join(" and ", given) + "."));
        } else {
            String field = given.get(0);
            JsonNode value = node.get(field);
            String fieldPointer = pointer + "/" + field;
            switch (field) {
                case "Seconds" -> {
                    if (!value.isIntegralNumber() || value.asLong() < 0) {
                        issues.add(fieldPointer, "Seconds must be a whole number, 0 or more.");
                    } else {
                        until = new WaitState.Seconds(value.asLong());
                    }
                }
                case "Timestamp" -> {
                    Optional<Instant> at = timestamp(value);
                    if (at.isEmpty()) {
                        issues.add(fieldPointer, "Timestamp must be an RFC 3339 time such as 2024-08-18T17:33:00Z.");
                    } else {
                        until = new WaitState.Timestamp(at.get());
                    }
                }
                case "SecondsPath" -> until = path(value, fieldPointer, false, true)
                        .map(WaitState.SecondsPath::new).orElse(null);
                default -> until = path(value, fieldPointer, false, true)
                        .map(WaitState.TimestampPath::new).orElse(null);
            }
        }
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before || until == null) {
            return null;
        }
        return new WaitState(name, comment, until, next);
    }

    static Optional<Instant> timestamp(JsonNode value) {
        if (!value.isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(java.time.OffsetDateTime.parse(value.asText()).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private State fail(String name, JsonNode node, String pointer, Optional<String> comment) {
        int before = issues.count();
        if (node.has("Next")) {
            issues.add(pointer + "/Next", "A Fail state ends the run, so it cannot have Next.");
        }
        if (node.has("End")) {
            issues.add(pointer + "/End", "A Fail state always ends the run; remove End.");
        }
        JsonNode rest = node.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) rest).remove(List.of("Next", "End"));
        issues.unknownFields(rest, pointer, FAIL_FIELDS, "a Fail state");
        Optional<String> error = optionalString(node, "Error", pointer);
        Optional<String> cause = optionalString(node, "Cause", pointer);
        Optional<String> errorPath = node.has("ErrorPath")
                ? path(node.get("ErrorPath"), pointer + "/ErrorPath", false, true) : Optional.empty();
        Optional<String> causePath = node.has("CausePath")
                ? path(node.get("CausePath"), pointer + "/CausePath", false, true) : Optional.empty();
        if (node.has("Error") && node.has("ErrorPath")) {
            issues.add(pointer + "/ErrorPath", "Give either Error or ErrorPath, not both.");
        }
        if (node.has("Cause") && node.has("CausePath")) {
            issues.add(pointer + "/CausePath", "Give either Cause or CausePath, not both.");
        }
        if (issues.count() > before) {
            return null;
        }
        return new FailState(name, comment, error, cause, errorPath, causePath);
    }

    private State expressionEval(String name, JsonNode node, String pointer, Optional<String> comment,
                                 List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, EXPRESSION_EVAL_FIELDS, "an ExpressionEval state");
        Optional<JsonNode> parameters = parameters(node, pointer, true);
        String resultPath = resultPath(node, pointer);
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before) {
            return null;
        }
        return new ExpressionEvalState(name, comment, parameters, resultPath, next);
    }

    private State parallel(String name, JsonNode node, String pointer, Optional<String> comment,
                           List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, PARALLEL_FIELDS, "a Parallel state");
        List<FlowDefinition> branches = new ArrayList<>();
        JsonNode branchNodes = node.get("Branches");
        if (branchNodes == null || !branchNodes.isArray() || branchNodes.isEmpty()) {
            issues.add(pointer + "/Branches", "A Parallel state needs Branches: a non-empty list of flows, "
                    + "each with StartAt and States.");
        } else {
            for (int i = 0; i < branchNodes.size(); i++) {
                FlowDefinition branch = flows.readFlow(branchNodes.get(i), pointer + "/Branches/" + i,
                        "branch " + i + " of Parallel state '" + name + "'");
                if (branch != null) {
                    branches.add(branch);
                }
            }
        }
        DataPaths paths = dataPaths(node, pointer);
        Optional<JsonNode> parameters = parameters(node, pointer, false);
        List<Retrier> retry = retriers(node, pointer);
        List<Catcher> catchers = catchers(node, pointer, references);
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before) {
            return null;
        }
        return new ParallelState(name, comment, branches, paths, parameters, retry, catchers, next);
    }

    private State map(String name, JsonNode node, String pointer, Optional<String> comment,
                      List<FlowReader.Reference> references) {
        int before = issues.count();
        issues.unknownFields(node, pointer, MAP_FIELDS, "a Map state");
        String itemsPath = node.has("ItemsPath")
                ? path(node.get("ItemsPath"), pointer + "/ItemsPath", false, true).orElse(null)
                : DataPaths.WHOLE_DOCUMENT;
        FlowDefinition iterator = null;
        if (node.has("Iterator") == node.has("ItemProcessor")) {
            issues.add(pointer, "A Map state needs exactly one of Iterator or ItemProcessor: the flow run per item.");
        } else {
            String field = node.has("Iterator") ? "Iterator" : "ItemProcessor";
            JsonNode processor = node.get(field);
            if (processor.isObject() && processor.has("ProcessorConfig")) {
                processor = processor.deepCopy();
                ((com.fasterxml.jackson.databind.node.ObjectNode) processor).remove("ProcessorConfig");
            }
            iterator = flows.readFlow(processor, pointer + "/" + field,
                    field + " of Map state '" + name + "'");
        }
        int maxConcurrency = 0;
        JsonNode concurrency = node.get("MaxConcurrency");
        if (concurrency != null) {
            if (!concurrency.isIntegralNumber() || concurrency.asInt() < 0) {
                issues.add(pointer + "/MaxConcurrency", "MaxConcurrency must be a whole number, 0 (no limit) or more.");
            } else {
                maxConcurrency = concurrency.asInt();
            }
        }
        if (node.has("Parameters") && node.has("ItemSelector")) {
            issues.add(pointer + "/ItemSelector", "Give either ItemSelector or Parameters, not both.");
        }
        Optional<JsonNode> selector = node.has("ItemSelector")
                ? template(node.get("ItemSelector"), pointer + "/ItemSelector", false, "ItemSelector")
                : parameters(node, pointer, false);
        DataPaths paths = dataPaths(node, pointer);
        List<Retrier> retry = retriers(node, pointer);
        List<Catcher> catchers = catchers(node, pointer, references);
        Optional<String> next = transition(node, pointer, references);
        if (issues.count() > before || iterator == null) {
            return null;
        }
        return new MapState(name, comment, itemsPath, iterator, maxConcurrency, paths, selector, retry, catchers,
                next);
    }

    // ---- shared fields ----

    private Optional<String> transition(JsonNode node, String pointer, List<FlowReader.Reference> references) {
        JsonNode next = node.get("Next");
        JsonNode end = node.get("End");
        if (end != null && !end.isBoolean()) {
            issues.add(pointer + "/End", "End must be true or false.");
            return Optional.empty();
        }
        boolean ends = end != null && end.asBoolean();
        if (next != null && ends) {
            issues.add(pointer + "/Next", "A state cannot have both Next and End: true; keep one.");
            return Optional.empty();
        }
        if (next == null && !ends) {
            issues.add(pointer, "The state needs either Next (the state to go to) or End: true.");
            return Optional.empty();
        }
        if (next != null) {
            if (!next.isTextual()) {
                issues.add(pointer + "/Next", "Next must name a state (a string).");
                return Optional.empty();
            }
            references.add(new FlowReader.Reference(next.asText(), pointer + "/Next"));
            return Optional.of(next.asText());
        }
        return Optional.empty();
    }

    private DataPaths dataPaths(JsonNode node, String pointer) {
        String inputPath = DataPaths.WHOLE_DOCUMENT;
        JsonNode input = node.get("InputPath");
        if (input != null) {
            inputPath = input.isNull() ? null : path(input, pointer + "/InputPath", false, false).orElse(null);
        }
        return new DataPaths(inputPath, resultPath(node, pointer));
    }

    private String resultPath(JsonNode node, String pointer) {
        JsonNode result = node.get("ResultPath");
        if (result == null) {
            return DataPaths.WHOLE_DOCUMENT;
        }
        return result.isNull() ? null : path(result, pointer + "/ResultPath", true, false).orElse(null);
    }

    private Optional<String> path(JsonNode value, String pointer, boolean reference, boolean contextAllowed) {
        String field = pointer.substring(pointer.lastIndexOf('/') + 1);
        if (!value.isTextual()) {
            issues.add(pointer, field + " must be a JSONPath string starting with '$'.");
            return Optional.empty();
        }
        Optional<String> problem = JsonPaths.problem(value.asText(), reference, contextAllowed);
        problem.ifPresent(text -> issues.add(pointer, field + " " + text + "."));
        return problem.isPresent() ? Optional.empty() : Optional.of(value.asText());
    }

    private Optional<JsonNode> parameters(JsonNode node, String pointer, boolean nullAllowed) {
        if (!node.has("Parameters")) {
            return Optional.empty();
        }
        return template(node.get("Parameters"), pointer + "/Parameters", nullAllowed, "Parameters");
    }

    private Optional<JsonNode> template(JsonNode value, String pointer, boolean nullAllowed, String field) {
        if (value.isNull() && nullAllowed) {
            return Optional.of(value);
        }
        if (!value.isObject()) {
            issues.add(pointer, field + " must be a JSON object (keys ending '.$' read a JSONPath, "
                    + "keys ending '.=' evaluate an expression).");
            return Optional.empty();
        }
        templates.check(value, pointer);
        return Optional.of(value.deepCopy());
    }

    private Optional<String> optionalString(JsonNode node, String field, String pointer) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            issues.add(pointer + "/" + field, field + " must be a string.");
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }

    private List<Catcher> catchers(JsonNode node, String pointer, List<FlowReader.Reference> references) {
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
                references.add(new FlowReader.Reference(next.asText(), catchPointer + "/Next"));
            }
            String resultPath = resultPath(catcher, catchPointer);
            if (issues.count() == before) {
                catchers.add(new Catcher(errors, next.asText(), resultPath));
            }
        }
        return catchers;
    }

    private List<Retrier> retriers(JsonNode node, String pointer) {
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
