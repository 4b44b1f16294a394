package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FlowDefinition;
import java.util.Optional;

/**
 * Checks a flow definition ({@code StartAt}, {@code States}, {@code Comment}) before it is saved and
 * turns it into a {@link FlowDefinition}. Every issue is reported at once, each with the JSON pointer
 * of the place it concerns, so an author can fix them all in one pass.
 */
public final class FlowValidator {

    public FlowValidator() {
    }

    public ValidationReport validate(JsonNode definition) {
        Issues issues = new Issues();
        FlowDefinition flow = new FlowReader(issues).readFlow(definition, "", "the flow definition");
        if (issues.count() > 0 || flow == null) {
            return new ValidationReport(issues.all(), Optional.empty());
        }
        return new ValidationReport(issues.all(), Optional.of(flow));
    }
}
