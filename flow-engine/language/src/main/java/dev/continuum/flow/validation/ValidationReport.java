package dev.continuum.flow.validation;

import dev.continuum.flow.model.FlowDefinition;
import java.util.List;
import java.util.Optional;

/** Every issue found in a flow definition; the parsed flow when there are none. */
public record ValidationReport(List<ValidationIssue> issues, Optional<FlowDefinition> flow) {

    public ValidationReport {
        issues = List.copyOf(issues);
    }

    public boolean valid() {
        return issues.isEmpty() && flow.isPresent();
    }
}
