package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The syntax tree of an expression. {@code position} is where the node's text (or operator) starts. */
sealed interface Node {

    int position();

    record Literal(JsonNode value, int position) implements Node { }

    record Name(String name, int position) implements Node { }

    /** A back-quoted JSONPath, e.g. {@code `$.input.path`}, resolved against the names object. */
    record JsonPathRef(String path, int position) implements Node { }

    record ListDisplay(List<Node> items, int position) implements Node { }

    record DictDisplay(List<Node> keys, List<Node> values, int position) implements Node { }

    record Attribute(Node target, String name, int position) implements Node { }

    record Subscript(Node target, Node index, int position) implements Node { }

    /** {@code target[lower:upper:step]}; absent bounds are null. */
    record Slice(Node target, Node lower, Node upper, Node step, int position) implements Node { }

    record Keyword(String name, Node value) { }

    record Call(String function, List<Node> args, List<Keyword> keywords, int position) implements Node { }

    record MethodCall(Node target, String method, List<Node> args, List<Keyword> keywords, int position)
            implements Node { }

    /** Unary {@code -}, {@code +}, {@code not}. */
    record Unary(String op, Node operand, int position) implements Node { }

    /** Arithmetic: {@code + - * / // % **}. */
    record Binary(String op, Node left, Node right, int position) implements Node { }

    /** Short-circuit {@code and} / {@code or}, which yield one of their operands as Python does. */
    record Logical(String op, Node left, Node right, int position) implements Node { }

    /** A possibly chained comparison {@code a < b <= c}; ops.size() == operands.size() - 1. */
    record Compare(List<Node> operands, List<String> ops, List<Integer> opPositions, int position) implements Node { }

    record Conditional(Node test, Node body, Node orElse, int position) implements Node { }

    /** {@code for a, b in iterable if cond1 if cond2}. */
    record Clause(List<String> targets, boolean unpack, Node iterable, List<Node> conditions) { }

    record ListComprehension(Node element, List<Clause> clauses, int position) implements Node { }

    record DictComprehension(Node key, Node value, List<Clause> clauses, int position) implements Node { }
}
