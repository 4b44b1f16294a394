package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.expr.ExpressionException;
import dev.continuum.flow.expr.Expressions;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/** Checks a Parameters-like template: {@code .$} values are JSONPaths, {@code .=} values parse as expressions. */
final class TemplateChecker {

    private final Issues issues;

    TemplateChecker(Issues issues) {
        this.issues = issues;
    }

    void check(JsonNode template, String pointer) {
        if (template.isArray()) {
            for (int i = 0; i < template.size(); i++) {
                check(template.get(i), pointer + "/" + i);
            }
            return;
        }
        if (!template.isObject()) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = template.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            JsonNode value = field.getValue();
            String fieldPointer = pointer + "/" + ValidationIssue.token(key);
            if (key.equals(Templates.PRIVATE_PARAMETERS)) {
                checkPrivateNames(value, fieldPointer);
            } else if (key.endsWith(Templates.PATH_SUFFIX)) {
                checkPath(key, value, fieldPointer);
            } else if (key.endsWith(Templates.EXPRESSION_SUFFIX)) {
                checkExpression(key, value, fieldPointer);
            } else {
                check(value, fieldPointer);
            }
        }
    }

    private void checkPrivateNames(JsonNode value, String pointer) {
        boolean ok = value.isArray();
        if (ok) {
            for (JsonNode name : value) {
                ok &= name.isTextual();
            }
        }
        if (!ok) {
            issues.add(pointer, "__Private_Parameters must be a list of parameter names (strings).");
        }
    }

    private void checkPath(String key, JsonNode value, String pointer) {
        if (!value.isTextual()) {
            issues.add(pointer, "'" + key + "' ends with '.$', so its value must be a JSONPath string such as \"$.input.path\".");
            return;
        }
        Optional<String> problem = JsonPaths.problem(value.asText(), false, true);
        problem.ifPresent(text -> issues.add(pointer, "'" + key + "' ends with '.$' but " + text + "."));
    }

    private void checkExpression(String key, JsonNode value, String pointer) {
        if (!value.isTextual()) {
            issues.add(pointer, "'" + key + "' ends with '.=', so its value must be an expression (a string).");
            return;
        }
        Optional<ExpressionException> problem = Expressions.checkSyntax(value.asText());
        problem.ifPresent(e -> issues.add(pointer, "'" + key + "' has an expression that does not parse at position "
                + e.position() + ": " + e.getMessage()));
    }
}
