package dev.continuum.engine.adapters.notify;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.RunNotice;

/** The words and the JSON of a notice, the same on every channel; only what RunNotice holds, so nothing secret. */
final class NoticeText {

    private NoticeText() {}

    static String subject(RunNotice n) {
        return "[Continuum] Run " + (n.label() == null || n.label().isBlank() ? n.runId() : "'" + n.label() + "'")
                + " is " + n.status();
    }

    static String body(RunNotice n) {
        return "Your run " + n.runId() + (n.label() == null ? "" : " (" + n.label() + ")") + " of flow " + n.flowId()
                + " (version " + n.flowVersion() + ") is " + n.status() + " since " + n.at() + ".\n"
                + (n.error() == null ? "" : "It failed with " + n.error() + "; its log says why.\n")
                + ("INACTIVE".equals(n.status()) ? "It waits for a person: see what it needs and resume it.\n" : "")
                + "\nSee it with: " + n.watchCommand() + "\n"
                + "\nYou get this because the run's activity_notification_policy names " + n.status() + ".\n";
    }

    static ObjectNode json(RunNotice n) {
        ObjectNode json = JsonNodeFactory.instance.objectNode()
                .put("run_id", n.runId().toString())
                .put("flow_id", n.flowId().toString())
                .put("flow_version", n.flowVersion())
                .put("run_owner", n.owner())
                .put("status", n.status())
                .put("time", n.at().toString())
                .put("watch", n.watchCommand());
        if (n.label() != null) {
            json.put("label", n.label());
        }
        if (n.error() != null) {
            json.put("error", n.error());
        }
        return json;
    }
}
