package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Calls an action provider: POST {actionUrl}/run with the body built from {@code parameters}
 * (or the input selected by InputPath), then polls until the action ends. The whole action status
 * ({@code action_id}, {@code status}, {@code details}, ...) is placed at ResultPath, as Globus does.
 *
 * @param parameters the Parameters template, absent when the body is the state input
 * @param waitTime how long the action may stay ACTIVE before it is cancelled (ActionTimeout)
 * @param next absent when the state ends the flow
 */
public record ActionState(String name, Optional<String> comment, String actionUrl, DataPaths paths,
                          Optional<JsonNode> parameters, Duration waitTime, boolean exceptionOnActionFailure,
                          Optional<String> runAs, Optional<String> actionScope, List<Retrier> retry,
                          List<Catcher> catchers, Optional<String> next) implements State {

    /** Globus Flows' default WaitTime. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(300);

    public ActionState {
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }
}
