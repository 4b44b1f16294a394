package dev.continuum.flow.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JSONPath as flows use it, on top of Jayway json-path. Two Globus/ASL conventions are handled here:
 * {@code "$."} means the whole document (Globus writes it), and a path starting {@code "$$"} reads the
 * run context instead of the state data.
 */
public final class JsonPaths {

    private static final Configuration JAYWAY = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider())
            .mappingProvider(new JacksonMappingProvider())
            .build();
    /** Turns the plain Java values Jayway may return (numbers, strings) into JSON nodes. */
    private static final ObjectMapper JAYWAY_MAPPER = new ObjectMapper();
    /** One step of Jayway's normalized form of a definite path: {@code ['name']} or {@code [3]}. */
    private static final Pattern NORMALIZED_STEP = Pattern.compile("\\['((?:[^'\\\\]|\\\\.)*)'\\]|\\[(\\d+)\\]");
    /**
     * Longest path, and most steps in one, that a flow may hold. Jayway's compiler recurses once per step, so a path
     * of tens of thousands of {@code ..a} steps overflows the stack (found by HostileInputApiTest); no real flow comes
     * near these.
     */
    public static final int MAX_LENGTH = 4096;
    public static final int MAX_STEPS = 256;

    private JsonPaths() {
    }

    public static boolean isWholeDocument(String path) {
        return "$".equals(path) || "$.".equals(path);
    }

    public static boolean isContextPath(String path) {
        return path.startsWith("$$");
    }

    /**
     * Why {@code path} is not a usable JSONPath, as a plain sentence; empty when it is usable.
     *
     * @param referenceOnly true where a value is written (ResultPath): no wildcards, filters or slices
     * @param contextAllowed true where {@code $$.} (the run context) may be read
     */
    public static Optional<String> problem(String path, boolean referenceOnly, boolean contextAllowed) {
        if (path == null) {
            return Optional.of("must be a JSONPath string starting with '$'");
        }
        String local = path;
        if (isContextPath(path)) {
            if (!contextAllowed) {
                return Optional.of("'" + path + "' reads the run context ($$), which is not allowed here");
            }
            local = path.substring(1);
        }
        if (isWholeDocument(local)) {
            return Optional.empty();
        }
        if (!local.startsWith("$.") && !local.startsWith("$[")) {
            return Optional.of("'" + shown(path) + "' is not a JSONPath: it must start with '$.' or '$['");
        }
        if (path.length() > MAX_LENGTH) {
            return Optional.of("'" + shown(path) + "' is " + path.length() + " characters long; a JSONPath may have at most " + MAX_LENGTH);
        }
        if (steps(local.chars()) > MAX_STEPS) {
            return Optional.of("'" + shown(path) + "' has more than " + MAX_STEPS + " steps ('.' or '[')");
        }
        try {
            JsonPath compiled = JsonPath.compile(local);
            if (referenceOnly && !compiled.isDefinite()) {
                return Optional.of("'" + path + "' must name a single place (no wildcards, filters, slices or '..')");
            }
        } catch (InvalidPathException e) {
            return Optional.of("'" + shown(path) + "' is not a valid JSONPath: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static long steps(java.util.stream.IntStream characters) {
        return characters.filter(c -> c == '.' || c == '[').count();
    }

    /** A refused path is quoted only in part in the message that refuses it. */
    private static String shown(String path) {
        return path.length() <= 80 ? path : path.substring(0, 80) + "…";
    }

    /**
     * Reads {@code path} from {@code data}, or from {@code context} when it starts with {@code $$}.
     * Returns a copy, so the caller may place it anywhere.
     *
     * @throws MissingPathException when the path matches nothing
     */
    public static JsonNode read(String path, JsonNode data, JsonNode context) throws MissingPathException {
        JsonNode root = data;
        String local = path;
        if (isContextPath(path)) {
            root = context;
            local = path.substring(1);
        }
        if (isWholeDocument(local)) {
            return root.deepCopy();
        }
        try {
            Object found = JsonPath.using(JAYWAY).parse(root).read(local);
            JsonNode node = found instanceof JsonNode json ? json : JAYWAY_MAPPER.valueToTree(found);
            return node == null ? JsonNodeFactory.instance.nullNode() : node.deepCopy();
        } catch (PathNotFoundException | IllegalArgumentException e) {
            throw new MissingPathException(path);
        }
    }

    /** True when {@code path} matches something (used by the IsPresent test). */
    public static boolean isPresent(String path, JsonNode data, JsonNode context) {
        try {
            read(path, data, context);
            return true;
        } catch (MissingPathException e) {
            return false;
        }
    }

    /**
     * Returns a copy of {@code document} with {@code value} placed at {@code resultPath}, creating
     * missing objects on the way. A null ResultPath discards the value; {@code "$"} replaces the document.
     */
    public static JsonNode place(JsonNode document, String resultPath, JsonNode value) throws DataException {
        if (resultPath == null) {
            return document;
        }
        if (isWholeDocument(resultPath)) {
            return value;
        }
        List<Object> steps = steps(resultPath);
        JsonNode root = document != null && document.isObject()
                ? document.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        JsonNode cursor = root;
        for (int i = 0; i < steps.size(); i++) {
            Object step = steps.get(i);
            boolean last = i == steps.size() - 1;
            if (step instanceof String key) {
                if (!(cursor instanceof ObjectNode object)) {
                    throw new DataException("ResultPath '" + resultPath + "' goes through a value that is not an object");
                }
                if (last) {
                    object.set(key, value);
                } else {
                    JsonNode child = object.get(key);
                    if (child == null || child.isNull() || !child.isContainerNode()) {
                        child = object.putObject(key);
                    }
                    cursor = child;
                }
            } else {
                int index = (Integer) step;
                if (!(cursor instanceof ArrayNode array) || index >= array.size()) {
                    throw new DataException("ResultPath '" + resultPath + "' names array element " + index
                            + " which does not exist");
                }
                if (last) {
                    array.set(index, value);
                } else {
                    cursor = array.get(index);
                }
            }
        }
        return root;
    }

    /** Paths already taken apart: a flow's few ResultPaths are placed on every step that has one. */
    private static final Map<String, List<Object>> STEPS = new ConcurrentHashMap<>();
    private static final int STEPS_KEPT = 10_000;

    /** Property names (String) and indexes (Integer) of a definite path, from Jayway's normalized form. */
    private static List<Object> steps(String path) throws DataException {
        List<Object> known = STEPS.get(path);
        if (known != null) {
            return known;
        }
        if (STEPS.size() >= STEPS_KEPT) {
            STEPS.clear(); // bounded memory; the paths in use come back on their next step
        }
        List<Object> steps = List.copyOf(parseSteps(path));
        STEPS.put(path, steps);
        return steps;
    }

    private static List<Object> parseSteps(String path) throws DataException {
        String normalized;
        try {
            normalized = JsonPath.compile(path).getPath();
        } catch (InvalidPathException e) {
            throw new DataException("ResultPath '" + path + "' is not a valid JSONPath");
        }
        List<Object> steps = new ArrayList<>();
        Matcher matcher = NORMALIZED_STEP.matcher(normalized);
        int position = 1; // after "$"
        while (matcher.find()) {
            if (matcher.start() != position) {
                throw new DataException("ResultPath '" + path + "' must name a single place");
            }
            if (matcher.group(1) != null) {
                steps.add(matcher.group(1).replace("\\'", "'").replace("\\\\", "\\"));
            } else {
                steps.add(Integer.parseInt(matcher.group(2)));
            }
            position = matcher.end();
        }
        if (position != normalized.length()) {
            throw new DataException("ResultPath '" + path + "' must name a single place");
        }
        return steps;
    }

    /** The path matched nothing in the document. */
    public static final class MissingPathException extends Exception {
        private final String path;

        public MissingPathException(String path) {
            super("path '" + path + "' not found");
            this.path = path;
        }

        public String path() {
            return path;
        }
    }
}
