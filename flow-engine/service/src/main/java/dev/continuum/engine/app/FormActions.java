package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.run.ActionObservation;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * What the engine answers, as the "provider" of {@link FormAction#URL}, in place of a call: the action is INACTIVE
 * (waiting for a person) until {@link HumanInputs} delivers the answer; cancel and release have nothing to do.
 */
public final class FormActions {

    private FormActions() {}

    /** Stable per request id, so a replayed start after a crash names the same action. */
    public static String actionId(String requestId) {
        return UUID.nameUUIDFromBytes(("form:" + requestId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    public static ActionObservation started(String requestId, JsonNode form) {
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        details.set("form", form == null ? JsonNodeFactory.instance.objectNode() : form.deepCopy());
        String title = form == null ? "" : form.path(FormAction.TITLE).asText("");
        return new ActionObservation(actionId(requestId), "INACTIVE", details, waitingFor(title));
    }

    /** Asked again (at the WaitTime deadline, or after a resume): still waiting. */
    public static ActionObservation stillWaiting(String actionId) {
        return new ActionObservation(actionId, "INACTIVE", null, waitingFor(""));
    }

    private static String waitingFor(String title) {
        return "Waiting for input" + (title.isBlank() ? "" : ": " + title) + " (see details.inputs; answer with POST "
                + "/runs/{run_id}/inputs/{state_name})";
    }
}
