package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.InputSchemas;
import dev.continuum.flow.validation.ValidationIssue;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Flow use cases: validate, publish, update (as a new version), read, delete. */
@ApplicationScoped
public class FlowService {

    /**
     * What a caller sends to create or update a flow; null fields keep their value on update. {@code flowOwner}
     * (update only, as Globus' update_flow) hands the flow to another principal.
     */
    public record FlowDraft(JsonNode definition, String title, String subtitle, String description, List<String> keywords,
                            JsonNode inputSchema, JsonNode roles, String flowOwner) {

        public FlowDraft(JsonNode definition, String title, String subtitle, String description, List<String> keywords,
                         JsonNode inputSchema, JsonNode roles) {
            this(definition, title, subtitle, description, keywords, inputSchema, roles, null);
        }
    }

    private final FlowStore flows;
    private final Clock clock;
    private final FlowValidator validator = new FlowValidator();

    public FlowService(FlowStore flows, Clock clock) {
        this.flows = flows;
        this.clock = clock;
    }

    /** Every problem with a definition and its input schema at once; empty when both are fine. */
    public List<FieldIssue> check(JsonNode definition, JsonNode inputSchema) {
        List<FieldIssue> issues = new ArrayList<>();
        if (definition == null || definition.isNull()) {
            issues.add(new FieldIssue("/definition", "A flow definition is required."));
        } else if (!definition.isObject()) {
            issues.add(new FieldIssue("/definition", "The flow definition must be a JSON object."));
        } else {
            validator.validate(definition).issues().forEach(i -> issues.add(prefixed("/definition", i)));
        }
        if (inputSchema != null && !inputSchema.isNull()) {
            InputSchemas.checkSchema(inputSchema).forEach(i -> issues.add(prefixed("/input_schema", i)));
        }
        return issues;
    }

    public Uni<FlowRecord> create(FlowDraft draft, String ownerId) {
        List<FieldIssue> issues = check(draft.definition(), draft.inputSchema());
        if (draft.title() == null || draft.title().isBlank()) {
            issues.add(0, new FieldIssue("/title", "A flow needs a title."));
        }
        refuseIf(issues);
        Instant now = clock.instant();
        FlowRecord flow = new FlowRecord(UUID.randomUUID(), ownerId, 1, draft.title(), draft.subtitle(), draft.description(),
                Optional.ofNullable(draft.keywords()).orElse(List.of()), roles(draft.roles()), draft.definition(),
                schema(draft.inputSchema()), now, now);
        return flows.create(flow).replaceWith(flow);
    }

    public Uni<FlowRecord> update(UUID id, FlowDraft draft, Viewer viewer) {
        return visible(id, viewer).flatMap(current -> {
            if (viewer.restricted() && !Access.administersFlow(current, viewer.id())) {
                throw new AccessDenied("Only the flow's owners and administrators may update flow " + id + ".");
            }
            if (draft == null) {
                throw EngineError.invalidField("", "A JSON body is required.");
            }
            if (viewer.restricted() && draft.roles() != null && !Access.ownsFlow(current, viewer.id())) {
                throw new AccessDenied("Only the flow's owners may change who holds its roles.");
            }
            String owner = newOwner(current, draft.flowOwner(), viewer);
            JsonNode definition = draft.definition() != null ? draft.definition() : current.definition();
            JsonNode schema = draft.inputSchema() != null ? draft.inputSchema() : current.inputSchema();
            List<FieldIssue> issues = check(definition, schema);
            if (draft.title() != null && draft.title().isBlank()) {
                issues.add(0, new FieldIssue("/title", "A flow title cannot be blank."));
            }
            refuseIf(issues);
            FlowRecord next = new FlowRecord(id, owner, current.version() + 1,
                    or(draft.title(), current.title()), or(draft.subtitle(), current.subtitle()),
                    or(draft.description(), current.description()), or(draft.keywords(), current.keywords()),
                    draft.roles() != null ? roles(draft.roles()) : current.roles(), definition, schema(schema),
                    current.createdAt(), clock.instant());
            return flows.addVersion(next, viewer.id()).replaceWith(next);
        });
    }

    /** Globus' flow_owner on update: only an owner may hand the flow over; the old owner keeps nothing by it. */
    private static String newOwner(FlowRecord current, String requested, Viewer viewer) {
        if (requested == null || requested.equals(current.ownerId())) {
            return current.ownerId();
        }
        String owner = requested.strip();
        if (owner.isEmpty() || owner.length() > 256) {
            throw EngineError.invalidField("/flow_owner", "flow_owner must name a user (1 to 256 characters).");
        }
        if (viewer.restricted() && !Access.ownsFlow(current, viewer.id())) {
            throw new AccessDenied("Only the flow's owners may hand it to someone else (flow_owner).");
        }
        return owner;
    }

    /** The flow, without any access check: for use cases that decide access themselves. */
    public Uni<FlowRecord> get(UUID id) {
        return flows.find(id).map(found -> found.orElseThrow(() -> EngineError.notFound("Flow", id.toString())));
    }

    /** The flow if the viewer may see it; otherwise "not found", exactly as if it did not exist. */
    public Uni<FlowRecord> visible(UUID id, Viewer viewer) {
        return visibleTo(get(id), id, viewer);
    }

    /** As {@link #visible}, from the newest version this process last saw ({@link FlowStore#findLastSeen}). */
    Uni<FlowRecord> visibleLastSeen(UUID id, Viewer viewer) {
        return visibleTo(flows.findLastSeen(id).map(found -> found.orElseThrow(() -> EngineError.notFound("Flow", id.toString()))),
                id, viewer);
    }

    private static Uni<FlowRecord> visibleTo(Uni<FlowRecord> found, UUID id, Viewer viewer) {
        return found.map(flow -> {
            if (viewer.restricted() && !Access.seesFlow(flow, viewer.id())) {
                throw EngineError.notFound("Flow", id.toString());
            }
            return flow;
        });
    }

    /** The version a run was started from (also of a deleted flow), without any access check. */
    public Uni<FlowRecord> version(UUID id, int version) {
        return flows.findVersion(id, version).map(found -> found.orElseThrow(() -> EngineError.notFound("Flow", id.toString())));
    }

    /** Several versions in one go (the flows of a page of runs); every one must exist, as runs keep theirs. */
    public Uni<java.util.Map<FlowStore.VersionKey, FlowRecord>> versions(java.util.Set<FlowStore.VersionKey> keys) {
        return flows.findVersions(keys).map(found -> {
            keys.stream().filter(k -> !found.containsKey(k)).findFirst().ifPresent(missing -> {
                throw EngineError.notFound("Flow", missing.id().toString());
            });
            return found;
        });
    }

    /** One page of the flow's versions, newest first, to whoever may see the flow (others hear it does not exist). */
    public Uni<Slice<FlowVersion.Change>> history(UUID id, FlowStore.VersionQuery query, Viewer viewer) {
        return visible(id, viewer).flatMap(flow -> flows.history(id, query));
    }

    /** One version of {@code flow} (as {@link #visible} gave it) as it was saved. */
    public Uni<FlowVersion> saved(FlowRecord flow, int version) {
        return flows.findSaved(flow.id(), version).map(found -> found.orElseThrow(() ->
                EngineError.notFound("Flow version", flow.id() + "/versions/" + version)));
    }

    /** One page of the flows the viewer may see, cut by the store. */
    public Uni<Slice<FlowRecord>> list(FlowQuery query, Viewer viewer) {
        return flows.list(query, viewer);
    }

    public Uni<Void> delete(UUID id, Viewer viewer) {
        return visible(id, viewer).flatMap(flow -> {
            if (viewer.restricted() && !Access.ownsFlow(flow, viewer.id())) {
                throw new AccessDenied("Only the flow's owners may delete flow " + id + ".");
            }
            return flows.delete(id);
        }).map(deleted -> {
            if (!deleted) {
                throw EngineError.notFound("Flow", id.toString());
            }
            return null;
        });
    }

    private static void refuseIf(List<FieldIssue> issues) {
        if (!issues.isEmpty()) {
            throw EngineError.invalid("Invalid flow", issues.size() == 1 ? issues.get(0).pointer() + ": " + issues.get(0).message()
                    : issues.size() + " problems were found in the flow; see errors.", issues);
        }
    }

    private static FieldIssue prefixed(String prefix, ValidationIssue issue) {
        String pointer = issue.pointer() == null || issue.pointer().isEmpty() || issue.pointer().equals("/") ? prefix
                : prefix + (issue.pointer().startsWith("/") ? issue.pointer() : "/" + issue.pointer());
        return new FieldIssue(pointer, issue.message());
    }

    private static JsonNode schema(JsonNode schema) {
        return schema == null || schema.isNull() ? null : schema;
    }

    private static JsonNode roles(JsonNode roles) {
        return roles == null || roles.isNull() ? JsonNodeFactory.instance.objectNode() : (ObjectNode) roles;
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
