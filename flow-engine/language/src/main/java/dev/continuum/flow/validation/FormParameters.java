package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FormAction;
import java.util.Iterator;

/**
 * The Parameters of a human-input Action ({@link FormAction}): known keys only, a form schema written in the
 * flow (so a broken one is refused when the flow is saved, not when a person opens the form) that is valid
 * JSON Schema 2020-12, and {@code selectable_by} a list of principals.
 */
final class FormParameters {

    private FormParameters() {
    }

    static void check(Issues issues, JsonNode state, String pointer) {
        JsonNode parameters = state.get("Parameters");
        String at = pointer + "/Parameters";
        if (parameters == null || !parameters.isObject()) {
            issues.add(at, "A user-input state (ActionUrl " + FormAction.URL
                    + ") needs Parameters with the form's 'schema' (a JSON Schema 2020-12).");
            return;
        }
        Iterator<String> names = parameters.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            String base = name.endsWith(".$") || name.endsWith(".=") ? name.substring(0, name.length() - 2) : name;
            if (!FormAction.PARAMETERS.contains(base)) {
                issues.add(at + "/" + ValidationIssue.token(name), "'" + name + "' is not a parameter of a user-input "
                        + "form; its parameters are description, schema, selectable_by, title.");
            } else if (base.equals(FormAction.SCHEMA) && !name.equals(base)) {
                issues.add(at + "/" + ValidationIssue.token(name), "The form's schema must be written in the flow "
                        + "(as 'schema', not computed with '" + name + "'), so it is checked when the flow is saved.");
            }
        }
        JsonNode schema = parameters.get(FormAction.SCHEMA);
        if (schema == null) {
            if (!parameters.has(FormAction.SCHEMA + ".$") && !parameters.has(FormAction.SCHEMA + ".=")) {
                issues.add(at + "/" + FormAction.SCHEMA, "A user-input form needs a 'schema' (a JSON Schema 2020-12 "
                        + "that the submission must satisfy).");
            }
        } else {
            InputSchemas.checkSchema(schema, "The form's schema")
                    .forEach(issue -> issues.add(at + "/" + FormAction.SCHEMA + issue.pointer(), issue.message()));
        }
        JsonNode selectableBy = parameters.get(FormAction.SELECTABLE_BY);
        if (selectableBy != null && !(selectableBy.isArray() && allText(selectableBy))) {
            issues.add(at + "/" + FormAction.SELECTABLE_BY, "selectable_by must be a list of principals (user ids, "
                    + "or 'all_authenticated_users') who may submit the form besides the run's owner and managers.");
        }
    }

    private static boolean allText(JsonNode list) {
        for (JsonNode item : list) {
            if (!item.isTextual()) {
                return false;
            }
        }
        return true;
    }
}
