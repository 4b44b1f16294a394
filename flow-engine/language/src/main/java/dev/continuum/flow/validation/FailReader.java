package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.State;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A Fail state: Error and Cause (or their paths); it always ends the run, so it has neither Next nor End. */
final class FailReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "Error", "Cause", "ErrorPath", "CausePath");

    private FailReader() {
    }

    static State read(StateFields fields, StateNode state) {
        StateReading reading = StateReading.begin(fields);
        Issues issues = reading.issues();
        JsonNode node = state.node();
        String pointer = state.pointer();
        if (node.has("Next")) {
            issues.add(pointer + "/Next", "A Fail state ends the run, so it cannot have Next.");
        }
        if (node.has("End")) {
            issues.add(pointer + "/End", "A Fail state always ends the run; remove End.");
        }
        ObjectNode rest = node.deepCopy();
        rest.remove(List.of("Next", "End"));
        issues.unknownFields(rest, pointer, FIELDS, "a Fail state");
        Optional<String> error = fields.optionalString(node, "Error", pointer);
        Optional<String> cause = fields.optionalString(node, "Cause", pointer);
        Optional<String> errorPath = node.has("ErrorPath")
                ? fields.path(node.get("ErrorPath"), pointer + "/ErrorPath", false, true) : Optional.empty();
        Optional<String> causePath = node.has("CausePath")
                ? fields.path(node.get("CausePath"), pointer + "/CausePath", false, true) : Optional.empty();
        if (node.has("Error") && node.has("ErrorPath")) {
            issues.add(pointer + "/ErrorPath", "Give either Error or ErrorPath, not both.");
        }
        if (node.has("Cause") && node.has("CausePath")) {
            issues.add(pointer + "/CausePath", "Give either Cause or CausePath, not both.");
        }
        if (reading.foundIssues()) {
            return null;
        }
        return new FailState(state.name(), state.comment(), error, cause, errorPath, causePath);
    }
}
