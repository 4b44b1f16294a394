package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Runs every branch (a flow of its own) on the same input, concurrently, and places the array of
 * their outputs, in branch order, at ResultPath. Not in Globus Flows; as in the Amazon States Language.
 */
public record ParallelState(String name, Optional<String> comment, List<FlowDefinition> branches, DataPaths paths,
                            Optional<JsonNode> parameters, List<Retrier> retry, List<Catcher> catchers,
                            Optional<String> next) implements State {

    public ParallelState {
        branches = List.copyOf(branches);
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }
}
