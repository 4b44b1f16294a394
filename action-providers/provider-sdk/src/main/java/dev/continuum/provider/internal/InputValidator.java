package dev.continuum.provider.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import com.networknt.schema.ValidationMessage;
import dev.continuum.provider.api.Problem;
import java.util.Comparator;
import java.util.List;

/** Checks an action body against the provider's input_schema, naming each bad field by pointer. */
final class InputValidator {

    private final JsonSchema schema;

    /** @param inputSchema null means "any object" */
    InputValidator(JsonNode inputSchema) {
        if (inputSchema == null || inputSchema.isNull()) {
            this.schema = null;
            return;
        }
        SpecVersion.VersionFlag version = SpecVersionDetector.detectOptionalVersion(inputSchema, false)
                .orElse(SpecVersion.VersionFlag.V202012);
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
                .pathType(PathType.JSON_POINTER)
                .formatAssertionsEnabled(true)
                .build();
        this.schema = JsonSchemaFactory.getInstance(version).getSchema(inputSchema, config);
    }

    /** Errors with pointers into the whole request document (so they start with {@code /body}). */
    List<Problem.FieldError> validate(JsonNode body) {
        if (schema == null) {
            return List.of();
        }
        return schema.validate(body).stream()
                .map(InputValidator::toFieldError)
                .sorted(Comparator.comparing(Problem.FieldError::pointer))
                .toList();
    }

    private static Problem.FieldError toFieldError(ValidationMessage m) {
        String location = m.getInstanceLocation() == null ? "" : m.getInstanceLocation().toString();
        if (location.equals("/")) {
            location = "";
        }
        // A missing property is reported at its parent; point at the property itself.
        if ("required".equals(m.getType()) && m.getProperty() != null) {
            location = location + "/" + m.getProperty().replace("~", "~0").replace("/", "~1");
        }
        String message = m.getError() != null ? m.getError() : m.getMessage();
        return new Problem.FieldError("/body" + location, message);
    }
}
