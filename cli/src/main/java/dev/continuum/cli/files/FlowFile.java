package dev.continuum.cli.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.InputSchemas;
import dev.continuum.flow.validation.ValidationIssue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A flow as a scientist keeps it on disk: either a bare definition ({@code StartAt}, {@code States}) or a document
 * with {@code title}, {@code definition}, {@code input_schema} and the other fields of {@code POST /flows}.
 *
 * @param path     where it was read from
 * @param document the body to send to the engine, always in document form
 * @param bare     true when the file held only a definition, so issue pointers are relative to the definition itself
 */
public record FlowFile(Path path, ObjectNode document, boolean bare) {

    /** The placeholder example flows use for the engine's built-in providers, e.g. {@code ${providers}/echo}. */
    public static final String PROVIDERS_PLACEHOLDER = "${providers}";

    public static FlowFile read(Path path, String api, ObjectMapper json) {
        String text = JsonFiles.readText(path).replace(PROVIDERS_PLACEHOLDER, stripSlash(api) + "/providers");
        JsonNode root = JsonFiles.parse(text, path.toString(), json);
        if (root.isObject() && root.has("definition")) {
            return new FlowFile(path, (ObjectNode) root.deepCopy(), false);
        }
        ObjectNode document = json.createObjectNode();
        document.set("definition", root);
        return new FlowFile(path, document, true);
    }

    public JsonNode definition() {
        return document.path("definition");
    }

    public JsonNode inputSchema() {
        return document.path("input_schema");
    }

    /**
     * Every problem the engine would report, found without it: the same validator the engine runs. Pointers point into
     * this file: {@code /States/...} for a bare definition, {@code /definition/States/...} for a document.
     */
    public List<ValidationIssue> check() {
        String definitionAt = bare ? "" : "/definition";
        List<ValidationIssue> issues = new ArrayList<>();
        JsonNode definition = definition();
        if (definition.isMissingNode() || definition.isNull()) {
            issues.add(new ValidationIssue("/definition", "A flow definition is required."));
        } else if (!definition.isObject()) {
            issues.add(new ValidationIssue(definitionAt, "The flow definition must be a JSON object."));
        } else {
            new FlowValidator().validate(definition).issues()
                    .forEach(i -> issues.add(new ValidationIssue(definitionAt + i.pointer(), i.message())));
        }
        JsonNode schema = inputSchema();
        if (!schema.isMissingNode() && !schema.isNull()) {
            InputSchemas.checkSchema(schema).forEach(i -> issues.add(new ValidationIssue("/input_schema" + i.pointer(), i.message())));
        }
        return issues;
    }

    /** A copy of the document with the title set, falling back to the file name when the file has none. */
    public ObjectNode withTitle(String title) {
        ObjectNode copy = document.deepCopy();
        if (title != null) {
            copy.put("title", title);
        } else if (!copy.hasNonNull("title")) {
            String name = path.getFileName().toString();
            copy.put("title", name.endsWith(".json") ? name.substring(0, name.length() - 5) : name);
        }
        return copy;
    }

    private static String stripSlash(String api) {
        return api.endsWith("/") ? api.substring(0, api.length() - 1) : api;
    }
}
