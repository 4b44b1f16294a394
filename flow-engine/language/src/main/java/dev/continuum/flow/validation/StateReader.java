package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.State;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one state: its Type, then its fields through the reader of that kind ({@link ActionReader},
 * {@link PassReader}, {@link ChoiceReader}, {@link WaitReader}, {@link FailReader},
 * {@link ExpressionEvalReader}, {@link ParallelReader}, {@link MapReader}), which share {@link StateFields}
 * and {@link ErrorHandlerFields}.
 */
final class StateReader {

    static final Set<String> KNOWN_TYPES =
            Set.of("Action", "Pass", "Choice", "Wait", "Fail", "ExpressionEval", "Parallel", "Map");

    private final Issues issues;
    private final FlowReader flows;
    private final StateFields fields;
    private final ErrorHandlerFields handlers;

    StateReader(Issues issues, FlowReader flows) {
        this.issues = issues;
        this.flows = flows;
        this.fields = new StateFields(issues);
        this.handlers = new ErrorHandlerFields(issues, fields);
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
        Optional<String> comment = fields.optionalString(node, "Comment", pointer);
        StateNode state = new StateNode(name, node, pointer, comment, references);
        return switch (typeName) {
            case "Action" -> ActionReader.read(fields, handlers, state);
            case "Pass" -> PassReader.read(fields, state);
            case "Choice" -> ChoiceReader.read(fields, state);
            case "Wait" -> WaitReader.read(fields, state);
            case "Fail" -> FailReader.read(fields, state);
            case "ExpressionEval" -> ExpressionEvalReader.read(fields, state);
            case "Parallel" -> ParallelReader.read(fields, handlers, flows, state);
            case "Map" -> MapReader.read(fields, handlers, flows, state);
            default -> throw new IllegalStateException("unhandled type " + typeName);
        };
    }

    private static String typeList() {
        return "Action, Pass, Choice, Wait, Fail, ExpressionEval, Parallel, Map";
    }
}
