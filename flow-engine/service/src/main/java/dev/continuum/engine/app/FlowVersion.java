package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.List;

/**
 * A saved version of a flow as it was then: {@code flow} holds its definition, input schema and the flow's metadata
 * at that version ({@code flow.updatedAt()} is when the version was saved), {@code createdBy} who saved it. A version
 * saved before the engine kept metadata per version has {@code metadataKnown} false (its title, owner, roles … are
 * null: only its definition and input schema are known), and no {@code createdBy}.
 */
public record FlowVersion(FlowRecord flow, String createdBy, boolean metadataKnown) {

    public int version() {
        return flow.version();
    }

    public Instant createdAt() {
        return flow.updatedAt();
    }

    /** A version in a listing, with the top-level fields (as the API names them) it changed from the one before. */
    public record Change(FlowVersion version, List<String> changed) {}

    /** The role lists a flow document carries, by their API names. */
    public static final List<String> ROLE_LISTS = List.of("flow_owners", "flow_administrators", "flow_starters",
            "flow_viewers", "run_managers", "run_monitors");

    /**
     * The top-level fields whose value differs from {@code previous}; fields unknown on either side are left out,
     * never guessed. Version 1 (no previous) changed nothing: it is the flow as created.
     */
    public List<String> changedSince(FlowVersion previous) {
        if (previous == null) {
            return List.of();
        }
        List<String> changed = new java.util.ArrayList<>();
        FlowRecord now = flow;
        FlowRecord then = previous.flow;
        differs("definition", now.definition(), then.definition(), changed);
        differs("input_schema", now.inputSchema(), then.inputSchema(), changed);
        if (metadataKnown && previous.metadataKnown) {
            differs("title", now.title(), then.title(), changed);
            differs("subtitle", now.subtitle(), then.subtitle(), changed);
            differs("description", now.description(), then.description(), changed);
            differs("keywords", now.keywords(), then.keywords(), changed);
            differs("flow_owner", now.ownerId(), then.ownerId(), changed);
            for (String role : ROLE_LISTS) {
                differs(role, roleList(now, role), roleList(then, role), changed);
            }
        }
        return changed;
    }

    private static JsonNode roleList(FlowRecord flow, String role) {
        return flow.roles() == null ? null : flow.roles().get(role);
    }

    private static void differs(String field, Object now, Object then, List<String> changed) {
        if (!java.util.Objects.equals(emptyAsNull(now), emptyAsNull(then))) {
            changed.add(field);
        }
    }

    /** An absent list, an empty one and an empty text all show the same to a reader. */
    private static Object emptyAsNull(Object value) {
        return value instanceof String s && s.isEmpty() || value instanceof List<?> l && l.isEmpty()
                || value instanceof JsonNode n && (n.isNull() || n.isContainerNode() && n.isEmpty()) ? null : value;
    }
}
