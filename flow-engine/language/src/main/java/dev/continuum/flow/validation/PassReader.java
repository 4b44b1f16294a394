package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.State;
import java.util.Optional;
import java.util.Set;

/** A Pass state: a fixed Result or Parameters placed at ResultPath. */
final class PassReader {

    private static final Set<String> FIELDS =
            Set.of("Type", "Comment", "Parameters", "Result", "InputPath", "ResultPath", "Next", "End");

    private PassReader() {
    }

    static State read(StateFields fields, StateNode state) {
        Issues issues = fields.issues();
        JsonNode node = state.node();
        String pointer = state.pointer();
        int before = issues.count();
        issues.unknownFields(node, pointer, FIELDS, "a Pass state");
        Optional<JsonNode> parameters = fields.parameters(node, pointer, false);
        DataPaths paths = fields.dataPaths(node, pointer);
        Optional<JsonNode> result = Optional.ofNullable(node.get("Result")).map(JsonNode::deepCopy);
        Optional<String> next = fields.transition(state);
        if (issues.count() > before) {
            return null;
        }
        return new PassState(state.name(), state.comment(), paths, parameters, result, next);
    }
}
