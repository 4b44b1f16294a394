package dev.continuum.flow.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.continuum.flow.expr.ExpressionException;
import dev.continuum.flow.expr.Expressions;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates a Parameters template against a state's input: keys ending {@code .$} take the value at
 * a JSONPath, keys ending {@code .=} the value of an expression, in objects at any depth and inside
 * list items. {@code __Private_Parameters} names keys whose values must not appear in logs; the
 * result comes with a copy in which they are redacted.
 */
public final class Templates {

    public static final String PATH_SUFFIX = ".$";
    public static final String EXPRESSION_SUFFIX = ".=";
    public static final String PRIVATE_PARAMETERS = "__Private_Parameters";
    /** The name under which flows see the run context in expressions and paths ({@code $._context}). */
    public static final String CONTEXT_KEY = "_context";
    public static final String REDACTED = "<redacted>";

    private Templates() {
    }

    /** The value to use (sent to providers, placed in the run) and the same with private values hidden. */
    public record Evaluated(JsonNode value, JsonNode redacted) {
    }

    /**
     * @param where names the template in error messages, e.g. {@code state 'Transfer' Parameters}
     */
    public static Evaluated evaluate(JsonNode template, JsonNode input, JsonNode context, String where)
            throws DataException {
        return walk(template, new Scope(input, withContext(input, context), context), where);
    }

    /** What a template reads: the input itself (for {@code $}), the input with {@code _context}, the context ({@code $$}). */
    private record Scope(JsonNode input, JsonNode view, JsonNode context) {
    }

    /**
     * The state input as flows see it: with the run context under {@code _context}. An input that is
     * not an object is returned as it is (the context stays reachable through {@code $$.}).
     */
    public static JsonNode withContext(JsonNode input, JsonNode context) {
        if (input == null || !input.isObject()) {
            return input == null ? JsonNodeFactory.instance.objectNode() : input;
        }
        ObjectNode view = JsonNodeFactory.instance.objectNode();
        view.setAll((ObjectNode) input);
        if (!view.has(CONTEXT_KEY)) {
            view.set(CONTEXT_KEY, context);
        }
        return view;
    }

    private static Evaluated walk(JsonNode template, Scope scope, String where)
            throws DataException {
        if (template.isObject()) {
            return walkObject((ObjectNode) template, scope, where);
        }
        if (template.isArray()) {
            ArrayNode value = JsonNodeFactory.instance.arrayNode();
            ArrayNode redacted = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < template.size(); i++) {
                Evaluated item = walk(template.get(i), scope, where + "[" + i + "]");
                value.add(item.value());
                redacted.add(item.redacted());
            }
            return new Evaluated(value, redacted);
        }
        return new Evaluated(template.deepCopy(), template.deepCopy());
    }

    private static Evaluated walkObject(ObjectNode template, Scope scope, String where)
            throws DataException {
        Set<String> hidden = privateNames(template);
        ObjectNode value = JsonNodeFactory.instance.objectNode();
        ObjectNode redacted = JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = template.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            if (key.equals(PRIVATE_PARAMETERS)) {
                continue;
            }
            String location = where + "." + key;
            String name;
            Evaluated item;
            if (key.endsWith(PATH_SUFFIX)) {
                name = key.substring(0, key.length() - PATH_SUFFIX.length());
                JsonNode found = readPath(field.getValue().asText(), scope, location);
                item = new Evaluated(found, found);
            } else if (key.endsWith(EXPRESSION_SUFFIX)) {
                name = key.substring(0, key.length() - EXPRESSION_SUFFIX.length());
                JsonNode result = evaluateExpression(field.getValue().asText(), scope.view(), location);
                item = new Evaluated(result, result);
            } else {
                name = key;
                item = walk(field.getValue(), scope, location);
            }
            value.set(name, item.value());
            boolean secret = hidden.contains(name) || hidden.contains(key);
            redacted.set(name, secret ? TextNode.valueOf(REDACTED) : item.redacted());
        }
        return new Evaluated(value, redacted);
    }

    private static Set<String> privateNames(ObjectNode template) {
        Set<String> names = new HashSet<>();
        JsonNode list = template.get(PRIVATE_PARAMETERS);
        if (list != null && list.isArray()) {
            list.forEach(name -> names.add(name.asText()));
        }
        return names;
    }

    private static JsonNode readPath(String path, Scope scope, String location) throws DataException {
        if (JsonPaths.isWholeDocument(path)) {
            return scope.input() == null ? JsonNodeFactory.instance.nullNode() : scope.input().deepCopy();
        }
        try {
            return JsonPaths.read(path, scope.view(), scope.context());
        } catch (JsonPaths.MissingPathException e) {
            String source = JsonPaths.isContextPath(path) ? "the run context" : "the state input";
            throw new DataException(location + ": path '" + path + "' not found in " + source);
        }
    }

    /** Evaluates one {@code .=} expression; names are the state input's top-level keys plus {@code _context}. */
    public static JsonNode evaluateExpression(String expression, JsonNode names, String location)
            throws DataException {
        try {
            JsonNode result = Expressions.evaluate(expression, names);
            return result == null ? JsonNodeFactory.instance.nullNode() : result;
        } catch (ExpressionException e) {
            throw new DataException(location + ": expression '" + expression + "' failed: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new DataException(location + ": expression '" + expression + "' failed: " + e);
        }
    }
}
