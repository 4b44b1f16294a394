package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A source bound to a flow: events that pass {@code filter} start a run of the flow (its latest version, or
 * {@code flowVersion} when pinned) with the input {@code inputTemplate} makes of the event, as the owner.
 *
 * @param consecutiveFailures events in a row whose run could not be started (reset by the next start)
 */
public record Trigger(UUID id, String ownerId, TriggerDraft spec, boolean paused, int consecutiveFailures,
                      Instant createdAt, Instant updatedAt) {

    public enum Status { ACTIVE, PAUSED, FAILING }

    public Status status() {
        return paused ? Status.PAUSED : consecutiveFailures > 0 ? Status.FAILING : Status.ACTIVE;
    }

    public String sourceType() {
        return spec.source().path("type").asText();
    }

    public boolean administeredBy(String user) {
        return user.equals(ownerId) || TriggerDraft.member(spec.administrators(), user);
    }

    public boolean seenBy(String user) {
        return administeredBy(user) || TriggerDraft.member(spec.viewers(), user);
    }

    /** What the run carries of the trigger: its label and tags, and a tag naming the trigger. */
    public List<String> runTags() {
        List<String> tags = new java.util.ArrayList<>(spec.runTags());
        tags.add("trigger:" + id);
        return tags;
    }

    /** The run context a template reads as {@code $._context} or {@code $$}. */
    public JsonNode context(TriggerEvent event) {
        var context = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        context.put("trigger_id", id.toString());
        context.put("source", sourceType());
        context.put("dedup_key", event.dedupKey());
        context.put("received_at", event.receivedAt().toString());
        if (event.topic() != null) {
            context.put("topic", event.topic());
        }
        return context;
    }
}
