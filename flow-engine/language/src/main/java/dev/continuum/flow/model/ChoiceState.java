package dev.continuum.flow.model;

import java.util.List;
import java.util.Optional;

/** Goes to the {@code next} of the first choice whose rule holds, else to {@code defaultNext}. */
public record ChoiceState(String name, Optional<String> comment, List<Branch> choices, Optional<String> defaultNext)
        implements State {

    public ChoiceState {
        choices = List.copyOf(choices);
    }

    public record Branch(ChoiceRule rule, String next) {
    }
}
