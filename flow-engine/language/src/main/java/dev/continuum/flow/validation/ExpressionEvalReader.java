package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.State;
import java.util.Optional;
import java.util.Set;

/** An ExpressionEval state: Parameters (null allowed) evaluated and placed at ResultPath. */
final class ExpressionEvalReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "Parameters", "ResultPath", "Next", "End");

    private ExpressionEvalReader() {
    }

    static State read(StateFields fields, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "an ExpressionEval state");
        Optional<JsonNode> parameters = fields.parameters(state.node(), state.pointer(), true);
        String resultPath = fields.resultPath(state.node(), state.pointer());
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues()) {
            return null;
        }
        return new ExpressionEvalState(state.name(), state.comment(), parameters, resultPath, next);
    }
}
