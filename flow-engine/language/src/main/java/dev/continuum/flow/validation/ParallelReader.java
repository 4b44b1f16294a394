package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A Parallel state: its Branches, each a flow of its own read by {@link FlowReader}. */
final class ParallelReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "Branches", "InputPath",
            "Parameters", "ResultPath", "Retry", "Catch", "Next", "End");

    private ParallelReader() {
    }

    static State read(StateFields fields, ErrorHandlerFields handlers, FlowReader flows, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "a Parallel state");
        Issues issues = reading.issues();
        List<FlowDefinition> branches = new ArrayList<>();
        JsonNode branchNodes = state.node().get("Branches");
        if (branchNodes == null || !branchNodes.isArray() || branchNodes.isEmpty()) {
            issues.add(state.pointer() + "/Branches", "A Parallel state needs Branches: a non-empty list of flows, "
                    + "each with StartAt and States.");
        } else {
            for (int i = 0; i < branchNodes.size(); i++) {
                FlowDefinition branch = flows.readFlow(branchNodes.get(i), state.pointer() + "/Branches/" + i,
                        "branch " + i + " of Parallel state '" + state.name() + "'");
                if (branch != null) {
                    branches.add(branch);
                }
            }
        }
        DataPaths paths = fields.dataPaths(state.node(), state.pointer());
        Optional<JsonNode> parameters = fields.parameters(state.node(), state.pointer(), false);
        List<Retrier> retry = handlers.retriers(state.node(), state.pointer());
        List<Catcher> catchers = handlers.catchers(state);
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues()) {
            return null;
        }
        return new ParallelState(state.name(), state.comment(), branches, paths, parameters, retry, catchers, next);
    }
}
