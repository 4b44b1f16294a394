package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A boolean test of a Choice state: a comparison of one variable, or And/Or/Not of other rules. */
public sealed interface ChoiceRule {

    /**
     * @param variable JSONPath of the value tested
     * @param operator e.g. {@code StringEquals}, {@code NumericLessThanPath}, {@code IsPresent}
     * @param operand the literal compared against, or for {@code ...Path} operators the JSONPath of it
     */
    record Comparison(String variable, String operator, JsonNode operand) implements ChoiceRule {
    }

    record And(List<ChoiceRule> rules) implements ChoiceRule {
        public And {
            rules = List.copyOf(rules);
        }
    }

    record Or(List<ChoiceRule> rules) implements ChoiceRule {
        public Or {
            rules = List.copyOf(rules);
        }
    }

    record Not(ChoiceRule rule) implements ChoiceRule {
    }
}
