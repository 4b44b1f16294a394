package dev.continuum.flow.expr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.expr.internal.Engine;
import java.util.Optional;

/**
 * Evaluates Globus Flows expressions ({@code "name.=": "..."} parameters and ExpressionEval
 * states): a sandboxed subset of Python expressions over JSON values.
 *
 * <p>Supported: arithmetic with Python semantics ({@code /} is true division, {@code //} and
 * {@code %} floor), comparisons (chained), {@code and}/{@code or}/{@code not}, {@code in},
 * {@code x if c else y}, list/dict literals and comprehensions, indexing and slicing, dotted access
 * into objects, string/list/dict methods, the Globus functions {@code pathsplit}, {@code is_present}
 * and {@code getattr}, common Python built-ins, and back-quoted JSONPath such as
 * {@code `$.input.path`}. Every evaluation is bounded by {@link ExpressionLimits}.
 *
 * <p>Values map as JSON does to Python: null is None, arrays are lists (tuples become arrays),
 * objects are dicts. The names object is never modified, and the result never shares nodes with it,
 * so the caller may change the result in place.
 */
public final class Expressions {

    private Expressions() {
    }

    /**
     * @param expression the expression text, e.g. {@code "state.i + step"}
     * @param names      a JSON object whose top-level keys are the expression's variables (null means none)
     * @return the value, as JSON
     * @throws ExpressionException when the expression does not parse, fails (as Python would raise), or
     *                             exceeds a limit; the message names the problem and its position
     */
    public static JsonNode evaluate(String expression, JsonNode names) throws ExpressionException {
        return Engine.evaluate(expression, names, ExpressionLimits.defaults());
    }

    /** As {@link #evaluate(String, JsonNode)}, with explicit limits. */
    public static JsonNode evaluate(String expression, JsonNode names, ExpressionLimits limits)
            throws ExpressionException {
        return Engine.evaluate(expression, names, limits);
    }

    /** Checks that the expression parses (e.g. when a flow is validated); empty when it does. */
    public static Optional<ExpressionException> checkSyntax(String expression) {
        try {
            Engine.checkSyntax(expression, ExpressionLimits.defaults());
            return Optional.empty();
        } catch (ExpressionException e) {
            return Optional.of(e);
        }
    }
}
