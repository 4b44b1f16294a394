package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** An Action state: the provider's ActionUrl, the body it is sent, how long to wait, who it runs as. */
final class ActionReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "ActionUrl", "Parameters",
            "InputPath", "ResultPath", "WaitTime", "ExceptionOnActionFailure", "RunAs", "ActionScope", "Catch",
            "Retry", "Next", "End");

    private ActionReader() {
    }

    static State read(StateFields fields, ErrorHandlerFields handlers, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "an Action state");
        Issues issues = reading.issues();
        JsonNode node = state.node();
        String pointer = state.pointer();
        String actionUrl = actionUrl(issues, node, pointer);
        if (!node.has("Parameters") && !node.has("InputPath")) {
            issues.add(pointer, "Action state '" + state.name()
                    + "' needs Parameters (or InputPath) to build the body sent to the action.");
        }
        Optional<JsonNode> parameters = fields.parameters(node, pointer, false);
        if (FormAction.is(actionUrl)) {
            FormParameters.check(issues, node, pointer);
        }
        DataPaths paths = fields.dataPaths(node, pointer);
        Duration waitTime = ActionState.DEFAULT_WAIT_TIME;
        JsonNode wait = node.get("WaitTime");
        if (wait != null) {
            if (!wait.isIntegralNumber() || wait.asLong() < 1) {
                issues.add(pointer + "/WaitTime", "WaitTime must be a whole number of seconds, at least 1.");
            } else {
                waitTime = Duration.ofSeconds(wait.asLong());
            }
        }
        boolean exceptionOnFailure = true;
        JsonNode onFailure = node.get("ExceptionOnActionFailure");
        if (onFailure != null) {
            if (!onFailure.isBoolean()) {
                issues.add(pointer + "/ExceptionOnActionFailure",
                        "ExceptionOnActionFailure must be true or false (a JSON boolean, not a string).");
            } else {
                exceptionOnFailure = onFailure.asBoolean();
            }
        }
        Optional<String> runAs = fields.optionalString(node, "RunAs", pointer);
        Optional<String> scope = fields.optionalString(node, "ActionScope", pointer);
        List<Retrier> retry = handlers.retriers(node, pointer);
        List<Catcher> catchers = handlers.catchers(state);
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues()) {
            return null;
        }
        return new ActionState(state.name(), state.comment(), actionUrl, paths, parameters, waitTime,
                exceptionOnFailure, runAs, scope, retry, catchers, next);
    }

    private static String actionUrl(Issues issues, JsonNode node, String pointer) {
        JsonNode url = node.get("ActionUrl");
        if (url == null) {
            issues.add(pointer + "/ActionUrl", "ActionUrl is required: the base URL of the action provider.");
            return null;
        }
        String text = url.asText();
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            if (!url.isTextual() || scheme == null || !(scheme.equals("http") || scheme.equals("https"))
                    || uri.getHost() == null) {
                issues.add(pointer + "/ActionUrl", "ActionUrl '" + text
                        + "' must be an absolute http or https URL, e.g. https://actions.example.org/transfer.");
            }
        } catch (URISyntaxException e) {
            issues.add(pointer + "/ActionUrl", "ActionUrl '" + text + "' is not a valid URL: " + e.getReason() + ".");
        }
        return text;
    }
}
