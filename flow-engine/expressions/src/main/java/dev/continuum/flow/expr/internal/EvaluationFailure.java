package dev.continuum.flow.expr.internal;

import dev.continuum.flow.expr.ExpressionException;

/**
 * Unchecked carrier for a failure deep inside evaluation. Helpers throw it without knowing where
 * in the expression they were called from; the evaluator attaches the position of the innermost
 * syntax node, and the public facade turns it into an {@link ExpressionException}.
 */
public final class EvaluationFailure extends RuntimeException {

    private final String reason;
    private final int position;

    public EvaluationFailure(String reason) {
        this(reason, -1);
    }

    public EvaluationFailure(String reason, int position) {
        super(reason, null, false, false);
        this.reason = reason;
        this.position = position;
    }

    public int position() {
        return position;
    }

    EvaluationFailure at(int newPosition) {
        return position >= 0 ? this : new EvaluationFailure(reason, newPosition);
    }

    public ExpressionException toException() {
        return new ExpressionException(reason, position);
    }
}
