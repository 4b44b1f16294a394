package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.continuum.engine.app.FlowActions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.Access;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.FlowVersion;
import dev.continuum.engine.app.RunAndFlow;
import dev.continuum.engine.app.RunEventRecord;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.Viewer;
import dev.continuum.flow.data.Templates;
import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.RunStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The API's JSON shapes: the Globus Flows API's (snake_case; FlowResponse, FlowRun, run log), so Globus'
 * own clients read them, plus a few fields of Continuum's own (version, flow_version, flow_owners, seq).
 * As in Globus, role lists are shown only to those who may change them: flow roles to the flow's
 * administrators, a run's managers and monitors to its managers; others see empty lists.
 */
final class Views {

    private Views() {}

    private static final List<String> FLOW_ROLE_ORDER = List.of("flow_owner", "flow_administrator", "flow_starter", "flow_viewer");

    record Flow(UUID id, int version, String title, String subtitle, String description, List<String> keywords,
                JsonNode definition, JsonNode inputSchema, String flowOwner, List<String> flowOwners,
                List<String> flowAdministrators, List<String> flowStarters, List<String> flowViewers,
                List<String> runManagers, List<String> runMonitors, String createdBy, Instant createdAt,
                Instant updatedAt, String userRole, List<String> userRoles, boolean synchronous, boolean logSupported,
                List<String> types, String apiVersion) {
        static Flow of(FlowRecord f, Viewer viewer) {
            List<String> userRoles = Access.flowRoles(f, viewer.id());
            boolean shown = !viewer.restricted() || Access.administersFlow(f, viewer.id());
            return new Flow(f.id(), f.version(), f.title(), text(f.subtitle()), text(f.description()), f.keywords(),
                    f.definition(), f.inputSchema(), f.ownerId(), role(f, "flow_owners", shown),
                    role(f, "flow_administrators", shown), role(f, "flow_starters", shown), role(f, "flow_viewers", shown),
                    role(f, "run_managers", shown), role(f, "run_monitors", shown), f.ownerId(), f.createdAt(),
                    f.updatedAt(), strongest(userRoles), userRoles, false, true, List.of("Action"), "1.0");
        }

        static List<String> role(FlowRecord flow, String name, boolean shown) {
            List<String> principals = new ArrayList<>();
            if (shown && flow.roles() != null) {
                flow.roles().path(name).forEach(p -> principals.add(p.asText()));
            }
            return principals;
        }

        /** Globus' deprecated single user_role: the strongest flow role, else the run role held on the flow. */
        private static String strongest(List<String> roles) {
            return FLOW_ROLE_ORDER.stream().filter(roles::contains).findFirst()
                    .orElse(roles.contains("flow_run_manager") ? "run_manager" : roles.contains("flow_run_monitor") ? "run_monitor" : null);
        }
    }

    /**
     * A version in GET /flows/{id}/versions: who saved it, when, and the top-level fields it changed from the version
     * before ({@code changes}, API names), also as one line for people ({@code summary}).
     */
    record VersionEntry(UUID flowId, int version, Instant createdAt, String createdBy, List<String> changes, String summary) {
        static VersionEntry of(FlowVersion.Change change) {
            FlowVersion v = change.version();
            String summary = v.version() == 1 ? "Created the flow"
                    : change.changed().isEmpty() ? (v.metadataKnown() ? "Saved without changes" : "Definition and input schema unchanged")
                    : "Changed " + String.join(", ", change.changed());
            return new VersionEntry(v.flow().id(), v.version(), v.createdAt(), v.createdBy(), change.changed(), summary);
        }
    }

    record VersionPage(List<VersionEntry> versions, int limit, boolean hasNextPage, String marker) {}

    /**
     * One version as it was saved. Role lists are shown, as on the flow, only to its current administrators; a version
     * saved before versions kept their metadata shows null for it ({@code metadata_known} false).
     */
    record Version(UUID id, int version, Instant createdAt, String createdBy, boolean metadataKnown, String title,
                   String subtitle, String description, List<String> keywords, JsonNode definition, JsonNode inputSchema,
                   String flowOwner, List<String> flowOwners, List<String> flowAdministrators, List<String> flowStarters,
                   List<String> flowViewers, List<String> runManagers, List<String> runMonitors) {
        static Version of(FlowVersion saved, FlowRecord current, Viewer viewer) {
            FlowRecord f = saved.flow();
            boolean shown = !viewer.restricted() || Access.administersFlow(current, viewer.id());
            return new Version(f.id(), f.version(), saved.createdAt(), saved.createdBy(), saved.metadataKnown(), f.title(),
                    f.subtitle(), f.description(), f.keywords(), f.definition(), f.inputSchema(), f.ownerId(),
                    Flow.role(f, "flow_owners", shown), Flow.role(f, "flow_administrators", shown),
                    Flow.role(f, "flow_starters", shown), Flow.role(f, "flow_viewers", shown),
                    Flow.role(f, "run_managers", shown), Flow.role(f, "run_monitors", shown));
        }
    }

    /** Globus' FlowEmbed: the flow a run belongs to, as {@code GET /runs/{id}?include_flow_description=true} adds it. */
    record FlowDescription(UUID id, String flowOwner, Instant createdAt, Instant updatedAt, String title, String subtitle,
                           String description, List<String> keywords) {
        static FlowDescription of(FlowRecord f) {
            return new FlowDescription(f.id(), f.ownerId(), f.createdAt(), f.updatedAt(), f.title(), text(f.subtitle()),
                    text(f.description()), f.keywords());
        }
    }

    /** Globus' marker-paged list: {@code flows} or {@code runs}, then limit, has_next_page and marker. */
    record FlowPage(List<Flow> flows, int limit, boolean hasNextPage, String marker) {}

    record RunPage(List<Run> runs, int limit, boolean hasNextPage, String marker) {}

    /**
     * Globus' code and description, then Continuum's own: output, error, cause, the state a FAILED run stopped in (as
     * Globus names it) and the input it had there (state_input, what a redrive reuses; withheld when the flow names
     * private parameters, which may have come from it), inactive_reason, the forms it waits on.
     */
    record RunDetails(String code, String description, JsonNode output, String error, String cause, String stateName,
                      JsonNode stateInput, String inactiveReason, List<Input> inputs) {
        static RunDetails of(RunState s, FlowRecord flow) {
            String[] code = switch (s.status()) {
                case ACTIVE -> new String[]{"FlowStarted", "The run is active"};
                case INACTIVE -> new String[]{"FlowInactive", "The run needs attention: " + s.inactiveReason().orElse("")};
                case SUCCEEDED -> new String[]{"FlowSucceeded", "The run reached a successful completion state"};
                case FAILED -> new String[]{"FlowFailed", "The run failed: " + s.error().orElse("")};
                case ENDED -> new String[]{"FlowCanceled", "The run was cancelled"};
            };
            List<Input> inputs = s.pendingForms().stream().map(Input::of).toList();
            JsonNode stateInput = namesPrivateParameters(flow) ? null : s.failedInput().orElse(null);
            return new RunDetails(code[0], code[1], s.output().orElse(null), s.error().orElse(null), s.cause().orElse(null),
                    s.failedState().orElse(null), stateInput, s.inactiveReason().orElse(null), inputs.isEmpty() ? null : inputs);
        }

        private static boolean namesPrivateParameters(FlowRecord flow) {
            return flow.definition() != null && !flow.definition().findValues(Templates.PRIVATE_PARAMETERS).isEmpty();
        }
    }

    /** A human-input form the run waits on, enough for a UI or CLI to render it; answered with POST /runs/{run_id}/inputs/{state_name}. */
    record Input(String stateName, String title, String description, JsonNode schema, List<String> selectableBy,
                 Instant expiresAt) {
        static Input of(RunState.PendingForm pending) {
            JsonNode form = pending.form();
            List<String> selectableBy = new ArrayList<>();
            form.path(FormAction.SELECTABLE_BY).forEach(name -> selectableBy.add(name.asText()));
            return new Input(pending.stateName(), text(form, FormAction.TITLE), text(form, FormAction.DESCRIPTION),
                    form.get(FormAction.SCHEMA), selectableBy, pending.expiresAt());
        }

        private static String text(JsonNode form, String field) {
            JsonNode value = form.get(field);
            return value == null || value.isNull() ? null : value.isTextual() ? value.asText() : value.toString();
        }
    }

    record Inputs(UUID runId, List<Input> inputs) {}

    record Run(UUID runId, UUID actionId, UUID flowId, int flowVersion, String flowTitle, Instant flowLastUpdated,
               String status, String displayStatus, String label, List<String> tags, String runOwner, String createdBy,
               List<String> runManagers, List<String> runMonitors, List<String> manageBy, List<String> monitorBy,
               String userRole, List<String> userRoles, Instant startTime, Instant completionTime, RunDetails details,
               FlowDescription flowDescription, NotificationPolicy activityNotificationPolicy, List<String> userActions,
               @JsonInclude(JsonInclude.Include.NON_NULL) UUID parentRunId,
               @JsonInclude(JsonInclude.Include.NON_NULL) String parentState,
               @JsonInclude(JsonInclude.Include.NON_NULL) List<UUID> childRunIds) {

        /** The run with the runs it is linked to by flow calls: the parent that started it, the children it started. */
        Run with(FlowActions.Lineage lineage) {
            return new Run(runId, actionId, flowId, flowVersion, flowTitle, flowLastUpdated, status, displayStatus, label,
                    tags, runOwner, createdBy, runManagers, runMonitors, manageBy, monitorBy, userRole, userRoles, startTime,
                    completionTime, details, flowDescription, activityNotificationPolicy, userActions,
                    lineage.parentRunId(), lineage.parentState(), lineage.childRunIds());
        }

        static Run of(RunAndFlow found, Viewer viewer, boolean withFlow) {
            RunRecord r = found.run();
            FlowRecord f = found.flow();
            List<String> userRoles = Access.runRoles(r, f, viewer.id());
            boolean shown = !viewer.restricted() || Access.managesRun(r, f, viewer.id());
            List<String> managers = shown ? r.runManagers() : List.of();
            List<String> monitors = shown ? r.runMonitors() : List.of();
            RunStatus status = r.state().status();
            return new Run(r.id(), r.id(), r.flowId(), r.flowVersion(), f.title(), f.updatedAt(), status.name(), status.name(),
                    r.label(), r.tags(), r.ownerId(), r.ownerId(), managers, monitors, managers, monitors,
                    strongest(userRoles), userRoles, r.createdAt(), r.completedAt(), RunDetails.of(r.state(), f),
                    withFlow ? FlowDescription.of(f) : null, new NotificationPolicy(r.state().notifyOn()),
                    Access.runActions(r, f, viewer), null, null, null);
        }

        /** Globus' deprecated single user_role: owner, else manager (of the run or through its flow), else monitor. */
        private static String strongest(List<String> roles) {
            if (roles.contains("run_owner")) {
                return "run_owner";
            }
            if (roles.contains("run_manager") || roles.contains("flow_run_manager")) {
                return roles.contains("run_manager") ? "run_manager" : "flow_run_manager";
            }
            return roles.isEmpty() ? null : roles.get(0);
        }
    }

    /** Globus' RunActivityNotificationPolicy as a run shows it. */
    record NotificationPolicy(List<String> status) {}

    /** Globus' GetRunDefinitionResponse (plus the flow version). */
    record RunDefinition(UUID flowId, int flowVersion, JsonNode definition, JsonNode inputSchema) {
        static RunDefinition of(FlowRecord f) {
            return new RunDefinition(f.id(), f.version(), f.definition(),
                    f.inputSchema() != null ? f.inputSchema() : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
    }

    private static final List<String> STATE_TYPES = List.of("ExpressionEval", "Action", "Pass", "Choice", "Wait", "Parallel",
            "Map", "Fail");

    /**
     * A log entry as Globus shows one (time, code, description, details with state_name and state_type), plus
     * Continuum's seq (its place in the log; the marker is the last seq of a page) and state_name beside details.
     */
    record Event(int seq, String code, String stateName, String description, JsonNode details, Instant time) {
        static Event of(RunEventRecord e) {
            JsonNode details = e.details();
            if (e.stateName() != null && (details == null || details.isObject())) {
                ObjectNode withState = details == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        : ((ObjectNode) details).deepCopy();
                withState.put("state_name", e.stateName());
                STATE_TYPES.stream().filter(type -> e.code().startsWith(type)).findFirst()
                        .ifPresent(type -> withState.put("state_type", type));
                details = withState;
            }
            return new Event(e.seq(), e.code(), e.stateName(), e.description(), details, e.at());
        }
    }

    record Log(UUID runId, int limit, List<Event> entries, boolean hasNextPage, String marker) {}

    record Validation(boolean valid, List<dev.continuum.engine.domain.EngineError.FieldIssue> errors) {}

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
