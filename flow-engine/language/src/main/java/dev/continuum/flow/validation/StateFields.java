package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.model.DataPaths;
import java.util.Optional;

/** Fields several kinds of state share: Next/End, InputPath/ResultPath/OutputPath, Parameters-like templates, strings. */
final class StateFields {

    private final Issues issues;
    private final TemplateChecker templates;

    StateFields(Issues issues) {
        this.issues = issues;
        this.templates = new TemplateChecker(issues);
    }

    Issues issues() {
        return issues;
    }

    /**
     * Next or End: true, exactly one of them. A Next that names a state is added to the state's references
     * even when the state is wrong otherwise, so that a missing target is reported too.
     */
    Optional<String> transition(StateNode state) {
        JsonNode node = state.node();
        String pointer = state.pointer();
        JsonNode next = node.get("Next");
        JsonNode end = node.get("End");
        if (next != null && next.isTextual()) {
            state.references().add(new FlowReader.Reference(next.asText(), pointer + "/Next"));
        }
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
            return Optional.of(next.asText());
        }
        return Optional.empty();
    }

    DataPaths dataPaths(JsonNode node, String pointer) {
        return new DataPaths(inputPath(node, pointer), resultPath(node, pointer));
    }

    String inputPath(JsonNode node, String pointer) {
        return dataPath(node, "InputPath", pointer, false);
    }

    String resultPath(JsonNode node, String pointer) {
        return dataPath(node, "ResultPath", pointer, true);
    }

    String outputPath(JsonNode node, String pointer) {
        return dataPath(node, "OutputPath", pointer, false);
    }

    /** {@code "$"} when the field is absent, {@code null} when it is JSON null, else the checked JSONPath. */
    private String dataPath(JsonNode node, String field, String pointer, boolean reference) {
        JsonNode value = node.get(field);
        if (value == null) {
            return DataPaths.WHOLE_DOCUMENT;
        }
        return value.isNull() ? null : path(value, pointer + "/" + field, reference, false).orElse(null);
    }

    Optional<String> path(JsonNode value, String pointer, boolean reference, boolean contextAllowed) {
        String field = pointer.substring(pointer.lastIndexOf('/') + 1);
        if (!value.isTextual()) {
            issues.add(pointer, field + " must be a JSONPath string starting with '$'.");
            return Optional.empty();
        }
        Optional<String> problem = JsonPaths.problem(value.asText(), reference, contextAllowed);
        problem.ifPresent(text -> issues.add(pointer, field + " " + text + "."));
        return problem.isPresent() ? Optional.empty() : Optional.of(value.asText());
    }

    Optional<JsonNode> parameters(JsonNode node, String pointer, boolean nullAllowed) {
        if (!node.has("Parameters")) {
            return Optional.empty();
        }
        return template(node.get("Parameters"), pointer + "/Parameters", nullAllowed, "Parameters");
    }

    Optional<JsonNode> template(JsonNode value, String pointer, boolean nullAllowed, String field) {
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

    Optional<String> optionalString(JsonNode node, String field, String pointer) {
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
}
