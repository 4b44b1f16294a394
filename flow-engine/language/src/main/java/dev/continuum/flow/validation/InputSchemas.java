package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaException;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A flow's {@code input_schema} (JSON Schema 2020-12): whether it is usable, and whether a run's input
 * satisfies it. Unknown formats (Globus uses {@code globus-collection}, {@code globus-principal}) are
 * annotations only, as 2020-12 specifies, so they never refuse an input.
 */
public final class InputSchemas {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
    private static final JsonSchema META_SCHEMA =
            FACTORY.getSchema(SchemaLocation.of(SchemaId.V202012), CONFIG);

    private InputSchemas() {
    }

    /**
     * Issues that make {@code schema} unusable; empty when it is a valid 2020-12 schema. Pointers are
     * relative to the schema document.
     */
    public static List<ValidationIssue> checkSchema(JsonNode schema) {
        return checkSchema(schema, "The input schema");
    }

    /** As {@link #checkSchema(JsonNode)}, with messages that call the schema {@code what} (e.g. "The form's schema"). */
    public static List<ValidationIssue> checkSchema(JsonNode schema, String what) {
        if (schema == null || !(schema.isObject() || schema.isBoolean())) {
            return List.of(new ValidationIssue("", what + " must be a JSON object (a JSON Schema 2020-12)."));
        }
        List<ValidationIssue> issues = issues(META_SCHEMA.validate(schema), what + " is not valid JSON Schema: ");
        if (!issues.isEmpty()) {
            return issues;
        }
        try {
            FACTORY.getSchema(schema, CONFIG).initializeValidators();
            return List.of();
        } catch (JsonSchemaException | IllegalArgumentException e) {
            return List.of(new ValidationIssue("", what + " cannot be used: " + e.getMessage()));
        }
    }

    /**
     * Where {@code input} breaks {@code schema}; empty when it conforms. Each pointer names the input
     * field, e.g. {@code /input/source/path} for a missing required {@code path}.
     */
    public static List<ValidationIssue> validateInput(JsonNode schema, JsonNode input) {
        JsonSchema compiled = FACTORY.getSchema(schema, CONFIG);
        return issues(compiled.validate(input), "");
    }

    private static List<ValidationIssue> issues(Set<ValidationMessage> messages, String prefix) {
        return messages.stream()
                .map(message -> new ValidationIssue(pointer(message), prefix + sentence(message)))
                .sorted(Comparator.comparing(ValidationIssue::pointer).thenComparing(ValidationIssue::message))
                .toList();
    }

    /** The instance location, extended by the property name when the message is about a missing property. */
    private static String pointer(ValidationMessage message) {
        String location = message.getInstanceLocation().toString();
        if ("required".equals(message.getType()) && message.getProperty() != null) {
            return location + "/" + ValidationIssue.token(message.getProperty());
        }
        return location;
    }

    private static String sentence(ValidationMessage message) {
        String text = message.getError();
        if (text == null || text.isBlank()) {
            text = message.getMessage();
        }
        text = text.strip();
        return text.endsWith(".") ? text : text + ".";
    }
}
