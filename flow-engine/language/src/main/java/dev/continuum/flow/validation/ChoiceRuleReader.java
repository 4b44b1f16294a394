package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.data.Timestamps;
import dev.continuum.flow.model.ChoiceRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Reads the rules of a Choice state: comparisons and their And/Or/Not combinations. */
final class ChoiceRuleReader {

    /** Operators whose operand is a literal of the given JSON kind. */
    private static final Set<String> STRING_OPERATORS = Set.of("StringEquals", "StringLessThan",
            "StringGreaterThan", "StringLessThanEquals", "StringGreaterThanEquals", "StringMatches");
    private static final Set<String> NUMERIC_OPERATORS = Set.of("NumericEquals", "NumericLessThan",
            "NumericGreaterThan", "NumericLessThanEquals", "NumericGreaterThanEquals");
    private static final Set<String> TIMESTAMP_OPERATORS = Set.of("TimestampEquals", "TimestampLessThan",
            "TimestampGreaterThan", "TimestampLessThanEquals", "TimestampGreaterThanEquals");
    private static final Set<String> BOOLEAN_OPERATORS = Set.of("BooleanEquals");
    /** Type tests: the operand says whether the test should hold (true) or not (false). */
    private static final Set<String> DATA_TESTS =
            Set.of("IsPresent", "IsNull", "IsString", "IsNumeric", "IsBoolean", "IsTimestamp");

    static final Set<String> OPERATORS = operators();

    private final Issues issues;

    ChoiceRuleReader(Issues issues) {
        this.issues = issues;
    }

    private static Set<String> operators() {
        Set<String> all = new HashSet<>(DATA_TESTS);
        for (Set<String> group : List.of(STRING_OPERATORS, NUMERIC_OPERATORS, TIMESTAMP_OPERATORS, BOOLEAN_OPERATORS)) {
            all.addAll(group);
            group.stream().filter(op -> !op.equals("StringMatches")).forEach(op -> all.add(op + "Path"));
        }
        return Set.copyOf(all);
    }

    /**
     * @param topLevel true for an entry of Choices (which carries Next), false for a rule nested in And/Or/Not
     */
    ChoiceRule read(JsonNode node, String pointer, boolean topLevel) {
        if (!node.isObject()) {
            issues.add(pointer, "A choice rule must be an object.");
            return null;
        }
        if (!topLevel && node.has("Next")) {
            issues.add(pointer + "/Next", "Next is only allowed on the top-level rule of a choice, "
                    + "not inside And, Or or Not.");
        }
        List<String> combinators = new ArrayList<>();
        for (String name : List.of("And", "Or", "Not")) {
            if (node.has(name)) {
                combinators.add(name);
            }
        }
        if (combinators.size() > 1) {
            issues.add(pointer, "A choice rule may use only one of And, Or and Not; it uses "
                    + String.join(" and ", combinators) + ".");
            return null;
        }
        if (combinators.size() == 1) {
            return combination(node, pointer, combinators.get(0));
        }
        return comparison(node, pointer);
    }

    private ChoiceRule combination(JsonNode node, String pointer, String combinator) {
        // Next is always let through here: when it is misplaced, read() has already said so
        issues.unknownFields(node, pointer, Set.of(combinator, "Comment", "Next"), "a choice rule using " + combinator);
        JsonNode operand = node.get(combinator);
        String operandPointer = pointer + "/" + combinator;
        if (combinator.equals("Not")) {
            ChoiceRule rule = read(operand, operandPointer, false);
            return rule == null ? null : new ChoiceRule.Not(rule);
        }
        if (!operand.isArray() || operand.isEmpty()) {
            issues.add(operandPointer, combinator + " must be a non-empty list of rules.");
            return null;
        }
        List<ChoiceRule> rules = new ArrayList<>();
        for (int i = 0; i < operand.size(); i++) {
            ChoiceRule rule = read(operand.get(i), operandPointer + "/" + i, false);
            if (rule != null) {
                rules.add(rule);
            }
        }
        if (rules.size() != operand.size()) {
            return null;
        }
        return combinator.equals("And") ? new ChoiceRule.And(rules) : new ChoiceRule.Or(rules);
    }

    private ChoiceRule comparison(JsonNode node, String pointer) {
        int before = issues.count();
        JsonNode variable = node.get("Variable");
        if (variable == null) {
            issues.add(pointer + "/Variable", "A comparison needs Variable: the JSONPath of the value to test"
                    + " (or use And, Or, Not).");
        } else if (!variable.isTextual()) {
            issues.add(pointer + "/Variable", "Variable must be a JSONPath string.");
        } else {
            JsonPaths.problem(variable.asText(), false, true)
                    .ifPresent(text -> issues.add(pointer + "/Variable", "Variable " + text + "."));
        }
        String operator = null;
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (name.equals("Variable") || name.equals("Next") || name.equals("Comment")) {
                continue;
            }
            if (!OPERATORS.contains(name)) {
                issues.add(pointer + "/" + ValidationIssue.token(name), "'" + name
                        + "' is not a comparison operator; use e.g. StringEquals, NumericLessThan, BooleanEquals, "
                        + "IsPresent, or a ...Path variant such as NumericLessThanPath.");
            } else if (operator != null) {
                issues.add(pointer + "/" + name, "A comparison has exactly one operator; it already has " + operator
                        + ".");
            } else {
                operator = name;
            }
        }
        if (operator == null) {
            if (issues.count() == before) {
                issues.add(pointer, "The rule has no comparison operator (such as StringEquals) and no And, Or or Not.");
            }
            return null;
        }
        checkOperand(operator, node.get(operator), pointer + "/" + operator);
        if (issues.count() > before) {
            return null;
        }
        return new ChoiceRule.Comparison(variable.asText(), operator, node.get(operator).deepCopy());
    }

    private void checkOperand(String operator, JsonNode operand, String pointer) {
        if (operator.endsWith("Path")) {
            if (!operand.isTextual()) {
                issues.add(pointer, operator + " must be a JSONPath string.");
            } else {
                JsonPaths.problem(operand.asText(), false, true)
                        .ifPresent(text -> issues.add(pointer, operator + " " + text + "."));
            }
        } else if (DATA_TESTS.contains(operator) || BOOLEAN_OPERATORS.contains(operator)) {
            if (!operand.isBoolean()) {
                issues.add(pointer, operator + " must be true or false (a JSON boolean, not a string).");
            }
        } else if (NUMERIC_OPERATORS.contains(operator)) {
            if (!operand.isNumber()) {
                issues.add(pointer, operator + " must be a number.");
            }
        } else if (TIMESTAMP_OPERATORS.contains(operator)) {
            if (Timestamps.parse(operand).isEmpty()) {
                issues.add(pointer, operator + " must be an RFC 3339 timestamp such as 2024-08-18T17:33:00Z.");
            }
        } else if (!operand.isTextual()) {
            issues.add(pointer, operator + " must be a string.");
        }
    }
}
