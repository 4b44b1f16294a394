package dev.continuum.engine.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.hostile.OpenApiOperations.Op;
import dev.continuum.engine.hostile.OpenApiOperations.Param;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Malformed and hostile requests derived from the engine's OpenAPI document: for every operation, each path and query
 * parameter and each field of its JSON body gets the attacks its declared type invites. Nothing here names an endpoint;
 * a new operation or field in the document gets its attacks without a change to this class.
 */
public final class HostileRequests {

    /**
     * One request and what its refusal must name: {@code pointer} is the JSON pointer errors[] must hold (or a place
     * inside it) when the answer is a 400 or 413; null when any pointer will do (the body as a whole is unreadable).
     */
    public record Attack(String kind, Op op, String method, String pathAndQuery, String contentType, byte[] body, String pointer) {
        @Override
        public String toString() {
            return kind + " → " + method + " " + Http.abbreviated(pathAndQuery) + (body == null ? "" : " [" + body.length + " bytes]");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** A run's state is limited to 1 MB and a request to 4 MB: this is what a careless or hostile client sends. */
    static final int TEN_MEGABYTES = 10 * 1024 * 1024;

    /** Path segments that must never reach a resource: traversal, NUL, RTL override, overlong and invalid UTF-8, homoglyphs. */
    static final List<String> SEGMENTS = List.of(
            "..%2F..%2F..%2Fetc%2Fpasswd",
            "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "..%5C..%5Cwindows%5Cwin.ini",
            "abc%00def",
            "%E2%80%AEfdp.exe",
            "%C0%AE%C0%AE%C0%AF",
            "%FF%FE%FD",
            "0000000%D0%B0-0000-0000-0000-000000000000", // Cyrillic 'а' where a UUID has a hex digit
            "x".repeat(2000),
            "12345");

    private final OpenApiOperations api;
    private final Map<String, String> validPathValues;

    /** {@code validPathValues}: a real value for each path parameter name, so an attack on one parameter is alone. */
    public HostileRequests(OpenApiOperations api, Map<String, String> validPathValues) {
        this.api = api;
        this.validPathValues = validPathValues;
    }

    public List<Attack> all() {
        List<Attack> attacks = new ArrayList<>();
        for (Op op : api.operations()) {
            if (op.isPublic()) {
                continue; // their credential is not a token: EndpointAccessApiTest covers them
            }
            attacks.addAll(pathAttacks(op));
            attacks.addAll(queryAttacks(op));
            if (op.bodyType().filter(type -> type.equals("application/json")).isPresent()) {
                attacks.addAll(bodyAttacks(op));
            }
        }
        return attacks;
    }

    private List<Attack> pathAttacks(Op op) {
        List<Attack> attacks = new ArrayList<>();
        for (Param param : op.in("path")) {
            for (String segment : SEGMENTS) {
                attacks.add(new Attack("path " + param.name(), op, op.method(), path(op, param.name(), segment), json(op), okBody(op),
                        "/" + param.name()));
            }
        }
        return attacks;
    }

    private List<Attack> queryAttacks(Op op) {
        List<Attack> attacks = new ArrayList<>();
        for (Param param : op.in("query")) {
            List<String> values = param.type().equals("integer")
                    ? List.of("abc", "-1", "99999999999999999999", "1e3", "%00")
                    // NUL, alone and inside text (invalid UTF-8 here is decoded to U+FFFD, a harmless character)
                    : List.of("a%00b", "%00");
            for (String value : values) {
                attacks.add(new Attack("query " + param.name(), op, op.method(), path(op, null, null) + "?" + param.name() + "=" + value,
                        json(op), okBody(op), "/" + param.name()));
            }
        }
        return attacks;
    }

    private List<Attack> bodyAttacks(Op op) {
        List<Attack> attacks = new ArrayList<>();
        String path = path(op, null, null);
        for (String raw : List.of("{", "[]", "\"a string\"", "123", "{\"a\":1,\"a\":2}", "{\"no_such_field\":1}")) {
            attacks.add(body("unreadable body", op, path, raw.getBytes(StandardCharsets.UTF_8), null));
        }
        attacks.add(body("invalid UTF-8", op, path, new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAE, '"', ':', '1', '}'}, null));
        attacks.add(body("10 MB body", op, path, ("{\"x\":\"" + "a".repeat(TEN_MEGABYTES) + "\"}").getBytes(StandardCharsets.UTF_8), ""));
        attacks.add(body("100,000-deep body", op, path, ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8), null));
        JsonNode schema = op.bodySchema().orElseThrow();
        for (Iterator<Map.Entry<String, JsonNode>> fields = schema.path("properties").fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            String pointer = "/" + name;
            String type = OpenApiOperations.type(api.document(), field.getValue());
            for (String value : wrongValues(type)) {
                attacks.add(body("field " + name + " (" + type + ") = " + Http.abbreviated(value), op, path,
                        ("{\"" + name + "\":" + value + "}").getBytes(StandardCharsets.UTF_8), pointer));
            }
            if (type.equals("any") || type.equals("object")) {
                attacks.add(body("10 MB state in " + name, op, path, ("{\"" + name + "\":{\"s\":\"" + "a".repeat(TEN_MEGABYTES) + "\"}}")
                        .getBytes(StandardCharsets.UTF_8), ""));
            }
            if (name.equals("definition")) {
                attacks.addAll(flowBombs(op, path, pointer, schema.path("properties").has("title")));
            }
            if (name.equals("filter")) {
                for (String bomb : expressionBombs()) {
                    attacks.add(body("expression bomb in filter", op, path, text(Map.of(name, NODES.textNode(bomb))), pointer));
                }
            }
            if (name.equals("input_template")) {
                for (String bomb : expressionBombs()) {
                    ObjectNode template = NODES.objectNode().put("x.=", bomb);
                    attacks.add(body("expression bomb in input_template", op, path, text(Map.of(name, template)), pointer + "/x.="));
                }
            }
        }
        return attacks;
    }

    /** Values no field of {@code type} may take; each must be refused naming the field. */
    static List<String> wrongValues(String type) {
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        return switch (type) {
            case "string" -> List.of("true", "7", "{\"a\":1}", "[\"a\"]", "\"a\\u0000b\"", "\"\\udc00 lone half\"");
            case "integer", "number" -> List.of("\"7\"", "true", "{}", "[1]", "1e400");
            case "boolean" -> List.of("\"yes\"", "1", "{}");
            case "array" -> List.of("\"a\"", "{\"a\":1}", "7", "[\"\\u0000\"]", deep);
            case "object" -> List.of("\"a\"", "[1]", "7", "{\"\\u0000\":1}", deep);
            // any JSON value is allowed, but not text PostgreSQL cannot keep, nor a tree deeper than the parser allows
            default -> List.of("{\"x\":\"\\u0000\"}", "{\"\\u202e\\u0000\":1}", "[\"\\ud800\"]", deep);
        };
    }

    /** Expressions the sandboxed evaluator must refuse before they run: too deep, too long, not an expression. */
    static List<String> expressionBombs() {
        return List.of("(".repeat(5_000) + "1" + ")".repeat(5_000),
                "1+".repeat(200_000) + "1",
                "\u202e)(][",
                "[[[[[[[[[[[[[[[[[[[[" + "[".repeat(5_000));
    }

    /** JSONPath bombs: tens of thousands of recursive-descent steps, unclosed brackets, megabyte paths, nested filters. */
    static List<String> jsonPathBombs() {
        return List.of("$" + "..a".repeat(20_000),
                "$" + "[".repeat(20_000),
                "$." + "a".repeat(2_000_000),
                "$[?(@.a==" + "(".repeat(3_000) + "1" + ")".repeat(3_000) + ")]",
                "$" + "..*".repeat(300));
    }

    private List<Attack> flowBombs(Op op, String path, String pointer, boolean titled) {
        List<Attack> attacks = new ArrayList<>();
        for (String bomb : expressionBombs()) {
            attacks.add(body("expression bomb in a flow", op, path, flow("x.=", bomb, titled), pointer + "/States/A/Parameters/x.="));
        }
        for (String bomb : jsonPathBombs()) {
            attacks.add(body("JSONPath bomb in a flow", op, path, flow("x.$", bomb, titled), pointer + "/States/A/Parameters/x.$"));
        }
        return attacks;
    }

    private static byte[] flow(String key, String value, boolean titled) {
        ObjectNode state = NODES.objectNode().put("Type", "Pass").put("End", true);
        state.putObject("Parameters").put(key, value);
        ObjectNode definition = NODES.objectNode().put("StartAt", "A");
        definition.putObject("States").set("A", state);
        return titled ? text(Map.of("title", NODES.textNode("bomb"), "definition", definition)) : text(Map.of("definition", definition));
    }

    private static byte[] text(Map<String, JsonNode> fields) {
        ObjectNode body = NODES.objectNode();
        fields.forEach(body::set);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Attack body(String kind, Op op, String path, byte[] body, String pointer) {
        return new Attack(kind, op, op.method(), path, "application/json", body, pointer);
    }

    private String path(Op op, String attacked, String value) {
        String path = op.path();
        for (Param param : op.in("path")) {
            String replacement = param.name().equals(attacked) ? value : validPathValues.get(param.name());
            if (replacement == null) {
                throw new IllegalStateException("no valid value for path parameter " + param.name() + " of " + op
                        + ": give HostileRequests one");
            }
            path = path.replace("{" + param.name() + "}", replacement);
        }
        return path;
    }

    private static String json(Op op) {
        return op.bodyType().orElse("application/json");
    }

    /** A body the operation accepts in shape, so a path or query attack is the request's only fault. */
    private static byte[] okBody(Op op) {
        if (op.bodyType().isEmpty()) {
            return null;
        }
        return op.bodyType().get().equals("application/json") ? "{}".getBytes(StandardCharsets.UTF_8) : new byte[0];
    }
}
