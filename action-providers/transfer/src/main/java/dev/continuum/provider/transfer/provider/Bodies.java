package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.server.InvalidInputException;
import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;

/** Small helpers to read Globus-shaped bodies with errors that name their JSON pointer. */
final class Bodies {

    private Bodies() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** The first present of {@code names}, as text; 400 naming the first name when none is. */
    static String requiredText(JsonNode body, String... names) {
        for (String name : names) {
            JsonNode v = body.get(name);
            if (v != null && !v.isNull()) {
                if (!v.isTextual() || v.asText().isEmpty()) {
                    throw new InvalidInputException("/body/" + name, name + " must be a non-empty string");
                }
                return v.asText();
            }
        }
        throw new InvalidInputException("/body/" + names[0], String.join(" or ", names) + " is required");
    }

    static EndpointPath path(JsonNode value, String pointer) {
        if (value == null || value.isNull()) {
            throw new InvalidInputException(pointer, "a path is required");
        }
        if (!value.isTextual()) {
            throw new InvalidInputException(pointer, "a path must be a string");
        }
        try {
            return PathNormalizer.normalize(value.asText());
        } catch (UnsafePathException e) {
            throw new InvalidInputException(pointer, e.getMessage());
        }
    }

    /** A top-level field's text read by {@code parse}; null when absent; what {@code parse} refuses is a 400 naming the field. */
    static <T> T optionalParsed(JsonNode body, String name, java.util.function.Function<String, T> parse) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        try {
            return parse.apply(value.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("/body/" + name, e.getMessage());
        }
    }

    static Boolean optionalBoolean(JsonNode node, String name, String pointer) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isBoolean()) {
            throw new InvalidInputException(pointer, name + " must be true or false");
        }
        return v.asBoolean();
    }
}
