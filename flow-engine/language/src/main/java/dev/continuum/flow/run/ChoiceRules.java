package dev.continuum.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.Timestamps;
import dev.continuum.flow.model.ChoiceRule;
import java.time.Instant;
import java.util.Optional;

/**
 * Evaluates Choice rules as the Amazon States Language defines them: a comparison whose variable
 * has the wrong type is false; a variable that is absent is an error, except for IsPresent.
 */
final class ChoiceRules {

    private final JsonNode view;
    private final JsonNode context;
    private final String where;

    /**
     * @param view the state input with {@code _context}
     * @param where names the state in error messages
     */
    ChoiceRules(JsonNode view, JsonNode context, String where) {
        this.view = view;
        this.context = context;
        this.where = where;
    }

    boolean holds(ChoiceRule rule, String location) throws DataException {
        return switch (rule) {
            case ChoiceRule.And and -> {
                for (int i = 0; i < and.rules().size(); i++) {
                    if (!holds(and.rules().get(i), location + ".And[" + i + "]")) {
                        yield false;
                    }
                }
                yield true;
            }
            case ChoiceRule.Or or -> {
                for (int i = 0; i < or.rules().size(); i++) {
                    if (holds(or.rules().get(i), location + ".Or[" + i + "]")) {
                        yield true;
                    }
                }
                yield false;
            }
            case ChoiceRule.Not not -> !holds(not.rule(), location + ".Not");
            case ChoiceRule.Comparison comparison -> compare(comparison, location);
        };
    }

    private boolean compare(ChoiceRule.Comparison comparison, String location) throws DataException {
        String operator = comparison.operator();
        if (operator.equals("IsPresent")) {
            boolean present = JsonPaths.isPresent(comparison.variable(), view, context);
            return present == comparison.operand().asBoolean();
        }
        JsonNode value = read(comparison.variable(), location + ".Variable");
        JsonNode operand = comparison.operand();
        String base = operator;
        if (operator.endsWith("Path")) {
            base = operator.substring(0, operator.length() - "Path".length());
            operand = read(operand.asText(), location + "." + operator);
        }
        return switch (base) {
            case "IsNull" -> value.isNull() == operand.asBoolean();
            case "IsString" -> value.isTextual() == operand.asBoolean();
            case "IsNumeric" -> value.isNumber() == operand.asBoolean();
            case "IsBoolean" -> value.isBoolean() == operand.asBoolean();
            case "IsTimestamp" -> Timestamps.parse(value).isPresent() == operand.asBoolean();
            case "BooleanEquals" -> value.isBoolean() && operand.isBoolean() && value.asBoolean() == operand.asBoolean();
            case "StringMatches" -> value.isTextual() && matches(value.asText(), operand.asText());
            default -> ordered(base, value, operand);
        };
    }

    private boolean ordered(String operator, JsonNode value, JsonNode operand) {
        Integer order = null;
        if (operator.startsWith("String") && value.isTextual() && operand.isTextual()) {
            order = value.asText().compareTo(operand.asText());
        } else if (operator.startsWith("Numeric") && value.isNumber() && operand.isNumber()) {
            order = value.decimalValue().compareTo(operand.decimalValue());
        } else if (operator.startsWith("Timestamp")) {
            Optional<Instant> left = Timestamps.parse(value);
            Optional<Instant> right = Timestamps.parse(operand);
            if (left.isPresent() && right.isPresent()) {
                order = left.get().compareTo(right.get());
            }
        }
        if (order == null) {
            return false;
        }
        String relation = operator.replaceFirst("^(String|Numeric|Timestamp)", "");
        return switch (relation) {
            case "Equals" -> order == 0;
            case "LessThan" -> order < 0;
            case "GreaterThan" -> order > 0;
            case "LessThanEquals" -> order <= 0;
            case "GreaterThanEquals" -> order >= 0;
            default -> throw new IllegalStateException("unknown comparison " + operator);
        };
    }

    private JsonNode read(String path, String location) throws DataException {
        try {
            return JsonPaths.read(path, view, context);
        } catch (JsonPaths.MissingPathException e) {
            String source = JsonPaths.isContextPath(path) ? "the run context" : "the state input";
            throw new DataException(where + " " + location + ": path '" + path + "' not found in " + source);
        }
    }


    /** ASL StringMatches: {@code *} matches any run of characters; {@code \*} is a literal star. */
    static boolean matches(String text, String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '*') {
                regex.append(".*");
            } else {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(c)));
            }
        }
        return text.matches(regex.toString());
    }
}
