package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.State;

import java.util.Optional;

/**
 * FlowStarted's details: the input the run started with, as Globus' run log shows it. A flow that names
 * {@code __Private_Parameters} anywhere may take a secret straight from its input, and its log must never show one:
 * for such a flow the input is withheld ({@code input_withheld}), since which input field feeds a private parameter
 * is known only as the run goes.
 */
final class StartInput {

    private StartInput() {}

    static ObjectNode details(FlowDefinition flow, JsonNode input) {
        return namesPrivateParameters(flow) ? Execution.JSON.objectNode().put("input_withheld", true)
                : Execution.details("input", input.deepCopy());
    }

    static boolean namesPrivateParameters(FlowDefinition flow) {
        return flow.states().values().stream().anyMatch(StartInput::namesPrivateParameters);
    }

    private static boolean namesPrivateParameters(State state) {
        return switch (state) {
            case ActionState a -> names(a.parameters());
            case PassState p -> names(p.parameters());
            case ExpressionEvalState e -> names(e.parameters());
            case MapState m -> names(m.itemSelector()) || namesPrivateParameters(m.iterator());
            case ParallelState p -> names(p.parameters()) || p.branches().stream().anyMatch(StartInput::namesPrivateParameters);
            default -> false;
        };
    }

    private static boolean names(Optional<JsonNode> template) {
        return template.map(t -> !t.findValues(Templates.PRIVATE_PARAMETERS).isEmpty()).orElse(false);
    }
}
