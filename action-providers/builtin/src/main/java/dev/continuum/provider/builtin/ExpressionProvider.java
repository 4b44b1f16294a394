package dev.continuum.provider.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.expr.ExpressionException;
import dev.continuum.flow.expr.Expressions;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code expression}: the Globus {@code expression_eval} provider. The body is one
 * {@code {expression, arguments, result_path}} or {@code {"expressions": [...]}} of them; each
 * expression is evaluated with its {@code arguments} as variables, in order, and its value placed
 * in the details at {@code result_path} ({@code "$.a.b"} or {@code "a.b"}; {@code result} when
 * absent). A later expression with the same result_path overwrites an earlier one, as in Globus.
 * A syntax error is bad input (400); an evaluation error fails the action.
 */
public final class ExpressionProvider implements ActionProvider {

    static final String SCOPE = "urn:continuum:providers:expression";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String DEFAULT_RESULT_PATH = "result";
    private static final JsonNode SCHEMA = Schemas.parse("""
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "$defs": {
               "expression": {
                 "type": "object",
                 "properties": {
                   "expression": {"type": "string", "minLength": 1},
                   "arguments": {"type": "object"},
                   "result_path": {"type": "string", "pattern": "^(\\\\$\\\\.)?[^.]+(\\\\.[^.]+)*$"}
                 },
                 "required": ["expression"]
               }
             },
             "type": "object",
             "oneOf": [
               {"$ref": "#/$defs/expression"},
               {"type": "object",
                "properties": {"expressions": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/expression"}}},
                "required": ["expressions"]}
             ]}""");

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Expression Evaluation")
                .subtitle("Evaluates expressions over JSON arguments")
                .description("Evaluates one or more Globus Flows expressions and returns each value at its result_path.")
                .keywords(List.of("expression", "expression_eval", "compute"))
                .scope(SCOPE)
                .synchronous(true)
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        List<Item> items = itemsOf(request.body());
        for (Item item : items) {
            Optional<ExpressionException> syntax = Expressions.checkSyntax(item.expression());
            if (syntax.isPresent()) {
                throw new InvalidInputException(item.pointer() + "/expression", syntax.get().getMessage());
            }
        }
        ObjectNode details = NODES.objectNode();
        for (Item item : items) {
            try {
                JsonNode value = Expressions.evaluate(item.expression(), item.arguments());
                place(details, item.resultPath(), value);
            } catch (ExpressionException e) {
                return ctx.failed("Expression failed", NODES.objectNode()
                        .put("error", e.getMessage())
                        .put("expression", item.expression())
                        .put("pointer", item.pointer() + "/expression"));
            }
        }
        return ctx.succeeded(details);
    }

    private record Item(String pointer, String expression, JsonNode arguments, List<String> resultPath) {}

    private static List<Item> itemsOf(JsonNode body) {
        if (!body.has("expressions")) {
            return List.of(itemOf("/body", body));
        }
        List<Item> items = new ArrayList<>();
        JsonNode all = body.get("expressions");
        for (int i = 0; i < all.size(); i++) {
            items.add(itemOf("/body/expressions/" + i, all.get(i)));
        }
        return items;
    }

    private static Item itemOf(String pointer, JsonNode node) {
        JsonNode arguments = node.hasNonNull("arguments") ? node.get("arguments") : NODES.objectNode();
        String path = node.path("result_path").asText(DEFAULT_RESULT_PATH);
        String trimmed = path.startsWith("$.") ? path.substring(2) : path;
        List<String> segments = List.of(trimmed.split("\\.", -1));
        if (trimmed.isEmpty() || segments.stream().anyMatch(String::isEmpty)) {
            throw new InvalidInputException(pointer + "/result_path", "result_path must look like $.a.b or a.b");
        }
        return new Item(pointer, node.get("expression").asText(), arguments, segments);
    }

    private static void place(ObjectNode details, List<String> path, JsonNode value) {
        ObjectNode parent = details;
        for (String segment : path.subList(0, path.size() - 1)) {
            parent = parent.get(segment) instanceof ObjectNode child ? child : parent.putObject(segment);
        }
        parent.set(path.get(path.size() - 1), value);
    }
}
