package dev.continuum.flow.model;

import java.util.List;

/**
 * One entry of a state's {@code Catch} list: on a matching error the run continues at {@code next}
 * with {@code {"Error": ..., "Cause": ...}} placed at {@code resultPath} (null = discarded).
 */
public record Catcher(List<String> errorEquals, String next, String resultPath) {

    public Catcher {
        errorEquals = List.copyOf(errorEquals);
    }
}
