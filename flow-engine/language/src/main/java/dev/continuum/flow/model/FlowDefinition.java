package dev.continuum.flow.model;

import java.util.Map;
import java.util.Optional;

/**
 * A validated flow: the state machine the interpreter runs. Also used for the branches of a
 * {@link ParallelState} and the iterator of a {@link MapState}, which are flows of their own.
 *
 * @param states the states by name, in definition order
 */
public record FlowDefinition(String startAt, Map<String, State> states, Optional<String> comment) {

    public FlowDefinition {
        states = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(states));
    }

    /** Every Action state, including those inside Parallel branches and Map iterators (what a run may call). */
    public java.util.List<ActionState> actionStates() {
        java.util.List<ActionState> found = new java.util.ArrayList<>();
        for (State state : states.values()) {
            switch (state) {
                case ActionState action -> found.add(action);
                case ParallelState parallel -> parallel.branches().forEach(branch -> found.addAll(branch.actionStates()));
                case MapState map -> found.addAll(map.iterator().actionStates());
                default -> { }
            }
        }
        return found;
    }

    public State state(String name) {
        State state = states.get(name);
        if (state == null) {
            throw new IllegalArgumentException("no state named '" + name + "' in this flow");
        }
        return state;
    }
}
