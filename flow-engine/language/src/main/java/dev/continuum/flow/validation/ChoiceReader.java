package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A Choice state: its rules, each with a Next, and an optional Default; the rules themselves go to {@link ChoiceRuleReader}. */
final class ChoiceReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "Choices", "Default");

    private ChoiceReader() {
    }

    static State read(StateFields fields, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "a Choice state");
        Issues issues = reading.issues();
        List<ChoiceState.Branch> branches = new ArrayList<>();
        JsonNode choices = state.node().get("Choices");
        if (choices == null) {
            issues.add(state.pointer() + "/Choices", "A Choice state needs Choices: a list of rules, each with a Next.");
        } else if (!choices.isArray() || choices.isEmpty()) {
            issues.add(state.pointer() + "/Choices", "Choices must be a non-empty list of rules, each with a Next.");
        } else {
            ChoiceRuleReader rules = new ChoiceRuleReader(issues);
            for (int i = 0; i < choices.size(); i++) {
                String choicePointer = state.pointer() + "/Choices/" + i;
                JsonNode choice = choices.get(i);
                JsonNode next = choice.get("Next");
                if (choice.isObject() && (next == null || !next.isTextual())) {
                    issues.add(choicePointer + "/Next", "Each choice needs a Next naming the state to go to.");
                } else if (next != null) {
                    state.references().add(new FlowReader.Reference(next.asText(), choicePointer + "/Next"));
                }
                var rule = rules.read(choice, choicePointer, true);
                if (rule != null && next != null) {
                    branches.add(new ChoiceState.Branch(rule, next.asText()));
                }
            }
        }
        Optional<String> defaultNext = Optional.empty();
        JsonNode defaultNode = state.node().get("Default");
        if (defaultNode != null) {
            if (!defaultNode.isTextual()) {
                issues.add(state.pointer() + "/Default", "Default must name a state (a string).");
            } else {
                defaultNext = Optional.of(defaultNode.asText());
                state.references().add(new FlowReader.Reference(defaultNode.asText(), state.pointer() + "/Default"));
            }
        }
        if (reading.foundIssues()) {
            return null;
        }
        return new ChoiceState(state.name(), state.comment(), branches, defaultNext);
    }
}
