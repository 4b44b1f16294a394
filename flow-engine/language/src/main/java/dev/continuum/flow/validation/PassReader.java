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
        StateReading reading = StateReading.open(fields, state, FIELDS, "a Pass state");
        Optional<JsonNode> parameters = fields.parameters(state.node(), state.pointer(), false);
        DataPaths paths = fields.dataPaths(state.node(), state.pointer());
        Optional<JsonNode> result = Optional.ofNullable(state.node().get("Result")).map(JsonNode::deepCopy);
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues()) {
            return null;
        }
        return new PassState(state.name(), state.comment(), paths, parameters, result, next);
    }
}
