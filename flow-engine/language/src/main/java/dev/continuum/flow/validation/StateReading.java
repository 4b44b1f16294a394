package dev.continuum.flow.validation;

import java.util.Set;

/**
 * The opening every per-state reader shares: the state's unknown fields refused, and — at the end — whether
 * reading it found anything wrong (the reader then returns no state).
 */
final class StateReading {

    private final Issues issues;
    private final int before;

    private StateReading(Issues issues) {
        this.issues = issues;
        this.before = issues.count();
    }

    /** Starts reading {@code state}, refusing every field not in {@code known}; {@code what} names the kind ("a Pass state"). */
    static StateReading open(StateFields fields, StateNode state, Set<String> known, String what) {
        StateReading reading = begin(fields);
        reading.issues.unknownFields(state.node(), state.pointer(), known, what);
        return reading;
    }

    /** Starts reading a state whose reader checks its fields itself. */
    static StateReading begin(StateFields fields) {
        return new StateReading(fields.issues());
    }

    Issues issues() {
        return issues;
    }

    /** Whether an issue was added since the reading began. */
    boolean foundIssues() {
        return issues.count() > before;
    }
}
