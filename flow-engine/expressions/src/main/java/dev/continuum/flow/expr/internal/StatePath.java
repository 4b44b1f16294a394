package dev.continuum.flow.expr.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPath subset used inside expressions (back-quoted {@code `$.a.b[0]`}) and by
 * {@code is_present} / {@code getattr}: {@code $}, {@code .name}, {@code ['name']}, {@code [index]}
 * (negative counts from the end) and the wildcards {@code .*} / {@code [*]}, which make the result a
 * list. Filters and recursive descent are deliberately absent: they are the expensive corners of
 * JSONPath and no real flow uses them inside an expression.
 */
final class StatePath {

    sealed interface Step permits Key, Index, Wildcard { }

    record Key(String name) implements Step { }

    record Index(int index) implements Step { }

    record Wildcard() implements Step { }

    private StatePath() {
    }

    /** Parses {@code $...} or, when {@code dotted} allows it, a bare {@code a.b[0]}. */
    static List<Step> parse(String path, boolean allowBare) {
        String p = path.strip();
        int i;
        if (p.startsWith("$")) {
            i = 1;
        } else if (allowBare) {
            p = "$." + p;
            i = 1;
        } else {
            throw new EvaluationFailure("JSONPath '" + path + "' must start with '$'");
        }
        List<Step> steps = new ArrayList<>();
        while (i < p.length()) {
            char c = p.charAt(i);
            if (p.startsWith("..", i)) {
                throw new EvaluationFailure("recursive descent in JSONPath '" + path + "' is not supported");
            }
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                String name = p.substring(i + 1, end);
                if (name.isEmpty()) {
                    if (end == p.length() && steps.isEmpty()) {
                        break; // "$." is the whole state, as Globus allows in ResultPath
                    }
                    throw new EvaluationFailure("JSONPath '" + path + "' has an empty name");
                }
                steps.add(name.equals("*") ? new Wildcard() : new Key(name));
                i = end;
            } else if (c == '[') {
                int end = closingBracket(p, i, path);
                String inner = p.substring(i + 1, end).strip();
                if (inner.equals("*")) {
                    steps.add(new Wildcard());
                } else if (inner.length() >= 2 && (inner.charAt(0) == '\'' || inner.charAt(0) == '"')
                        && inner.charAt(inner.length() - 1) == inner.charAt(0)) {
                    steps.add(new Key(inner.substring(1, inner.length() - 1)));
                } else {
                    try {
                        steps.add(new Index(Integer.parseInt(inner)));
                    } catch (NumberFormatException e) {
                        throw new EvaluationFailure("JSONPath '" + path + "' has an unsupported selector [" + inner + "]");
                    }
                }
                i = end + 1;
            } else {
                throw new EvaluationFailure("JSONPath '" + path + "' is malformed at '" + p.substring(i) + "'");
            }
        }
        return steps;
    }

    private static int closingBracket(String p, int open, String original) {
        char quote = 0;
        for (int j = open + 1; j < p.length(); j++) {
            char c = p.charAt(j);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ']') {
                return j;
            }
        }
        throw new EvaluationFailure("JSONPath '" + original + "' has an unclosed '['");
    }

    /** Resolves the steps; returns null when the path does not exist. */
    static JsonNode resolve(JsonNode root, List<Step> steps) {
        return resolve(root, steps, 0);
    }

    private static JsonNode resolve(JsonNode node, List<Step> steps, int from) {
        JsonNode current = node;
        for (int s = from; s < steps.size(); s++) {
            Step step = steps.get(s);
            switch (step) {
                case Key key -> {
                    current = current.isObject() ? current.get(key.name()) : null;
                }
                case Index index -> {
                    if (!current.isArray()) {
                        return null;
                    }
                    int at = index.index() < 0 ? current.size() + index.index() : index.index();
                    current = at >= 0 && at < current.size() ? current.get(at) : null;
                }
                case Wildcard w -> {
                    if (!current.isContainerNode()) {
                        return null;
                    }
                    var out = Values.JSON.arrayNode();
                    for (JsonNode child : current) {
                        JsonNode r = resolve(child, steps, s + 1);
                        if (r != null) {
                            out.add(r);
                        }
                    }
                    return out;
                }
            }
            if (current == null) {
                return null;
            }
        }
        return current;
    }
}
