package dev.continuum.flow.expr.internal;

import static dev.continuum.flow.expr.internal.Values.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tree-walking evaluator. Values are Jackson nodes and are never mutated: every operation builds
 * new nodes, so names passed in by the caller are safe to share. Comprehension variables live in a
 * stack of scopes above the caller's names.
 */
final class Evaluator {

    private final JsonNode names;
    private final Budget budget;
    private final Arithmetic arithmetic;
    private final Builtins builtins;
    private final Methods methods;
    private final List<Map<String, JsonNode>> scopes = new ArrayList<>();

    Evaluator(JsonNode names, Budget budget) {
        this.names = names;
        this.budget = budget;
        this.arithmetic = new Arithmetic(budget);
        this.builtins = new Builtins(this, budget);
        this.methods = new Methods(budget);
    }

    JsonNode eval(Node node) {
        budget.step();
        try {
            return switch (node) {
                case Node.Literal literal -> literal.value();
                case Node.Name name -> lookup(name);
                case Node.JsonPathRef ref -> jsonPath(ref.path());
                case Node.ListDisplay list -> list(list);
                case Node.DictDisplay dict -> dict(dict);
                case Node.Attribute attribute -> attribute(eval(attribute.target()), attribute.name());
                case Node.Subscript subscript -> Sequences.index(eval(subscript.target()), eval(subscript.index()), budget);
                case Node.Slice slice -> Sequences.slice(eval(slice.target()), optional(slice.lower()),
                        optional(slice.upper()), optional(slice.step()), budget);
                case Node.Call call -> builtins.call(call);
                case Node.MethodCall call -> methods.call(eval(call.target()), call.method(),
                        evalAll(call.args()), evalKeywords(call.keywords()));
                case Node.Unary unary -> unary(unary);
                case Node.Binary binary -> arithmetic.binary(binary.op(), eval(binary.left()), eval(binary.right()));
                case Node.Logical logical -> logical(logical);
                case Node.Compare compare -> compare(compare);
                case Node.Conditional c -> Values.truthy(eval(c.test())) ? eval(c.body()) : eval(c.orElse());
                case Node.ListComprehension c -> listComprehension(c);
                case Node.DictComprehension c -> dictComprehension(c);
            };
        } catch (EvaluationFailure failure) {
            throw failure.at(node.position());
        }
    }

    private JsonNode optional(Node node) {
        return node == null ? null : eval(node);
    }

    List<JsonNode> evalAll(List<Node> nodes) {
        List<JsonNode> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            out.add(eval(n));
        }
        return out;
    }

    Map<String, JsonNode> evalKeywords(List<Node.Keyword> keywords) {
        if (keywords.isEmpty()) {
            return Map.of();
        }
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (Node.Keyword k : keywords) {
            if (out.put(k.name(), eval(k.value())) != null) {
                throw new EvaluationFailure("keyword argument '" + k.name() + "' repeated");
            }
        }
        return out;
    }

    private JsonNode lookup(Node.Name name) {
        JsonNode value = variable(name.name());
        if (value == null) {
            throw new EvaluationFailure("name '" + name.name() + "' is not defined", name.position());
        }
        return value;
    }

    /** A comprehension variable or a top-level key of the names object; null when neither exists. */
    JsonNode variable(String name) {
        for (int i = scopes.size() - 1; i >= 0; i--) {
            JsonNode v = scopes.get(i).get(name);
            if (v != null) {
                return v;
            }
        }
        return names.get(name);
    }

    /** Resolves a path whose first element may be a comprehension variable; null when absent. */
    JsonNode statePath(String path) {
        List<StatePath.Step> steps = StatePath.parse(path, true);
        if (!steps.isEmpty() && steps.getFirst() instanceof StatePath.Key first && !path.strip().startsWith("$")) {
            JsonNode start = variable(first.name());
            return start == null ? null : StatePath.resolve(start, steps.subList(1, steps.size()));
        }
        return StatePath.resolve(names, steps);
    }

    private JsonNode jsonPath(String path) {
        JsonNode value = StatePath.resolve(names, StatePath.parse(path, false));
        if (value == null) {
            throw new EvaluationFailure("JSONPath '" + path + "' does not match anything in the state");
        }
        return value;
    }

    private JsonNode list(Node.ListDisplay list) {
        budget.allocateCollection(list.items().size());
        ArrayNode out = JSON.arrayNode(list.items().size());
        for (Node item : list.items()) {
            out.add(eval(item));
        }
        return out;
    }

    private JsonNode dict(Node.DictDisplay dict) {
        budget.allocateCollection(dict.keys().size());
        ObjectNode out = JSON.objectNode();
        for (int i = 0; i < dict.keys().size(); i++) {
            String key = Values.dictKey(eval(dict.keys().get(i)), budget);
            out.set(key, eval(dict.values().get(i)));
        }
        return out;
    }

    /** {@code a.b}: a dict member, as Globus expressions address nested state with dots. */
    private JsonNode attribute(JsonNode target, String name) {
        if (target.isObject()) {
            JsonNode value = target.get(name);
            if (value == null) {
                throw new EvaluationFailure("'dict' object has no key or attribute '" + name + "'");
            }
            return value;
        }
        throw new EvaluationFailure("'" + Values.typeName(target) + "' object has no attribute '" + name + "'");
    }

    private JsonNode unary(Node.Unary unary) {
        JsonNode operand = eval(unary.operand());
        return switch (unary.op()) {
            case "not" -> Values.bool(!Values.truthy(operand));
            case "-" -> arithmetic.negate(operand);
            default -> arithmetic.plus(operand);
        };
    }

    private JsonNode logical(Node.Logical logical) {
        JsonNode left = eval(logical.left());
        boolean truth = Values.truthy(left);
        if (logical.op().equals("and") ? !truth : truth) {
            return left;
        }
        return eval(logical.right());
    }

    private JsonNode compare(Node.Compare compare) {
        JsonNode left = eval(compare.operands().getFirst());
        for (int i = 0; i < compare.ops().size(); i++) {
            JsonNode right = eval(compare.operands().get(i + 1));
            boolean holds;
            try {
                holds = compareOnce(compare.ops().get(i), left, right);
            } catch (EvaluationFailure failure) {
                throw failure.at(compare.opPositions().get(i));
            }
            if (!holds) {
                return Values.bool(false);
            }
            left = right;
        }
        return Values.bool(true);
    }

    private boolean compareOnce(String op, JsonNode left, JsonNode right) {
        return switch (op) {
            case "==" -> Values.pyEquals(left, right, budget);
            case "!=" -> !Values.pyEquals(left, right, budget);
            case "<" -> Values.compare(left, right, op, budget) < 0;
            case "<=" -> Values.compare(left, right, op, budget) <= 0;
            case ">" -> Values.compare(left, right, op, budget) > 0;
            case ">=" -> Values.compare(left, right, op, budget) >= 0;
            case "in" -> Sequences.contains(right, left, budget);
            case "not in" -> !Sequences.contains(right, left, budget);
            case "is" -> identical(left, right);
            case "is not" -> !identical(left, right);
            default -> throw new IllegalStateException("unknown comparison " + op);
        };
    }

    /** JSON scalars have no identity, so they are identical when type and value match; containers by reference. */
    private static boolean identical(JsonNode a, JsonNode b) {
        if (a.isContainerNode() || b.isContainerNode()) {
            return a == b;
        }
        return Values.typeName(a).equals(Values.typeName(b)) && a.equals(b);
    }

    private JsonNode listComprehension(Node.ListComprehension c) {
        ArrayNode out = JSON.arrayNode();
        comprehend(c.clauses(), 0, () -> {
            budget.growCollection(out.size() + 1L);
            out.add(eval(c.element()));
        });
        return out;
    }

    private JsonNode dictComprehension(Node.DictComprehension c) {
        ObjectNode out = JSON.objectNode();
        comprehend(c.clauses(), 0, () -> {
            budget.growCollection(out.size() + 1L);
            String key = Values.dictKey(eval(c.key()), budget);
            out.set(key, eval(c.value()));
        });
        return out;
    }

    private void comprehend(List<Node.Clause> clauses, int index, Runnable body) {
        if (index == clauses.size()) {
            body.run();
            return;
        }
        Node.Clause clause = clauses.get(index);
        List<JsonNode> items = Values.iterate(eval(clause.iterable()), budget);
        Map<String, JsonNode> scope = new HashMap<>();
        scopes.add(scope);
        try {
            for (JsonNode item : items) {
                budget.step();
                bind(clause, item, scope);
                boolean accepted = true;
                for (Node condition : clause.conditions()) {
                    if (!Values.truthy(eval(condition))) {
                        accepted = false;
                        break;
                    }
                }
                if (accepted) {
                    comprehend(clauses, index + 1, body);
                }
            }
        } finally {
            scopes.removeLast();
        }
    }

    private void bind(Node.Clause clause, JsonNode item, Map<String, JsonNode> scope) {
        if (!clause.unpack()) {
            scope.put(clause.targets().getFirst(), item);
            return;
        }
        List<JsonNode> parts = Values.iterate(item, budget);
        if (parts.size() != clause.targets().size()) {
            throw new EvaluationFailure("cannot unpack " + parts.size() + " values into "
                    + clause.targets().size() + " variables");
        }
        for (int i = 0; i < parts.size(); i++) {
            scope.put(clause.targets().get(i), parts.get(i));
        }
    }
}
