package dev.continuum.flow.model;

import java.util.Optional;

/**
 * One state of a flow. The set is closed so that every {@code switch} over a state is exhaustive:
 * adding a state type makes the compiler point at every place that must handle it.
 */
public sealed interface State
        permits ActionState, PassState, ChoiceState, WaitState, FailState, ExpressionEvalState, ParallelState, MapState {

    String name();

    Optional<String> comment();

    /** The name used in flow documents ({@code "Type"}). */
    default String type() {
        return switch (this) {
            case ActionState a -> "Action";
            case PassState p -> "Pass";
            case ChoiceState c -> "Choice";
            case WaitState w -> "Wait";
            case FailState f -> "Fail";
            case ExpressionEvalState e -> "ExpressionEval";
            case ParallelState p -> "Parallel";
            case MapState m -> "Map";
        };
    }
}
