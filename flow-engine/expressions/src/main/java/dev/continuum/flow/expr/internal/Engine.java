package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.expr.ExpressionException;
import dev.continuum.flow.expr.ExpressionLimits;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/** Entry point behind {@link dev.continuum.flow.expr.Expressions}; no compatibility promise. */
public final class Engine {

    private Engine() {
    }

    public static JsonNode evaluate(String expression, JsonNode names, ExpressionLimits limits)
            throws ExpressionException {
        if (expression == null) {
            throw new ExpressionException("expression is missing", -1);
        }
        if (names != null && !names.isNull() && !names.isMissingNode() && !names.isObject()) {
            throw new ExpressionException("the names an expression is evaluated against must be a JSON object, not "
                    + Values.typeName(names), -1);
        }
        JsonNode scope = names == null || !names.isObject() ? Values.JSON.objectNode() : names;
        Budget budget = new Budget(limits);
        try {
            Node tree = parse(expression, limits);
            JsonNode result = new Evaluator(scope, budget).eval(tree);
            checkResultSize(result, limits, budget);
            // the caller will store the result in run state and may later change it in place;
            // a copy (bounded by the result-size check) keeps that from reaching the names object
            return result.isContainerNode() ? result.deepCopy() : result;
        } catch (EvaluationFailure failure) {
            throw failure.toException();
        } catch (StackOverflowError e) {
            // defensive: nesting limits should make this unreachable
            throw new ExpressionException("expression is nested too deeply to evaluate", -1);
        } catch (RuntimeException e) {
            // defensive: a bug in a built-in must fail this expression, never the engine's transition
            throw new ExpressionException("expression could not be evaluated (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + ")", -1);
        }
    }

    public static void checkSyntax(String expression, ExpressionLimits limits) throws ExpressionException {
        if (expression == null) {
            throw new ExpressionException("expression is missing", -1);
        }
        try {
            parse(expression, limits);
        } catch (EvaluationFailure failure) {
            throw failure.toException();
        } catch (StackOverflowError e) {
            throw new ExpressionException("expression is nested too deeply to parse", -1);
        } catch (RuntimeException e) {
            throw new ExpressionException("expression could not be parsed (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + ")", -1);
        }
    }

    private static Node parse(String expression, ExpressionLimits limits) {
        if (expression.length() > limits.maxExpressionLength()) {
            throw new EvaluationFailure("expression is longer than " + limits.maxExpressionLength() + " characters", -1);
        }
        return Parser.parse(expression, limits.maxNesting());
    }

    /**
     * Estimates the JSON size of the result without serialising it. Values built by repetition
     * share nodes ({@code [big] * 1000}), so the estimate walks the result, bounded by the budget.
     */
    private static void checkResultSize(JsonNode result, ExpressionLimits limits, Budget budget) {
        long size = 0;
        Deque<JsonNode> pending = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        pending.push(result);
        depths.push(0);
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            int depth = depths.pop();
            budget.checkDepth(depth);
            size += 2;
            if (node.isTextual()) {
                size += node.textValue().length();
            } else if (node.isNumber()) {
                size += 8;
            } else if (node.isArray()) {
                for (JsonNode child : node) {
                    pending.push(child);
                    depths.push(depth + 1);
                }
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = ((ObjectNode) node).fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    size += e.getKey().length() + 3;
                    pending.push(e.getValue());
                    depths.push(depth + 1);
                }
            }
            if (size > limits.maxResultBytes()) {
                throw new EvaluationFailure("result would be larger than " + limits.maxResultBytes() + " bytes of JSON", -1);
            }
        }
    }
}
