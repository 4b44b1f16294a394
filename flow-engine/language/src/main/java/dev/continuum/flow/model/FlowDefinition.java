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

    public State state(String name) {
        State state = states.get(name);
        if (state == null) {
            throw new IllegalArgumentException("no state named '" + name + "' in this flow");
        }
        return state;
    }
}
