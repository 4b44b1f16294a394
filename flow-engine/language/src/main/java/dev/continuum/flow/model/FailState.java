package dev.continuum.flow.model;

import java.util.Optional;

/**
 * Ends the run FAILED. Error and Cause are literals, or read from the state input through
 * ErrorPath and CausePath.
 */
public record FailState(String name, Optional<String> comment, Optional<String> error, Optional<String> cause,
                        Optional<String> errorPath, Optional<String> causePath) implements State {

    public static final String DEFAULT_ERROR = "States.Fail";
}
