package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.FlowService;
import dev.continuum.engine.app.FlowService.FlowDraft;
import dev.continuum.engine.app.FlowStore;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.domain.EngineError;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.net.URI;
import java.util.List;

@Path("/flows")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class FlowResource {

    /** Body of create/update; field names as in Globus Flows. */
    public record FlowBody(JsonNode definition, String title, String subtitle, String description, List<String> keywords,
                           JsonNode inputSchema, List<String> flowOwners, List<String> flowAdministrators,
                           List<String> flowStarters, List<String> flowViewers, List<String> runManagers,
                           List<String> runMonitors, String flowOwner) {
        FlowDraft draft() {
            com.fasterxml.jackson.databind.node.ObjectNode roles = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            put(roles, "flow_owners", flowOwners);
            put(roles, "flow_administrators", flowAdministrators);
            put(roles, "flow_starters", flowStarters);
            put(roles, "flow_viewers", flowViewers);
            put(roles, "run_managers", runManagers);
            put(roles, "run_monitors", runMonitors);
            return new FlowDraft(definition, title, subtitle, description, keywords, inputSchema, roles.isEmpty() ? null : roles,
                    flowOwner);
        }

        private static void put(com.fasterxml.jackson.databind.node.ObjectNode roles, String name, List<String> members) {
            if (members != null) {
                roles.set(name, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode()
                        .addAll(members.stream().map(com.fasterxml.jackson.databind.node.TextNode::valueOf).toList()));
            }
        }
    }

    public record ValidateBody(JsonNode definition, JsonNode inputSchema) {}

    /**
     * @param runAs access tokens for the {@code RunAs} roles the flow's Action states name, by role name
     *              (Globus' run-start credentials). Exchanged at start, never stored in plain or echoed back.
     */
    public record RunBody(JsonNode body, String label, List<String> tags, java.util.Map<String, String> runAs,
                          List<String> runManagers, List<String> runMonitors,
                          NotificationPolicy activityNotificationPolicy, Integer flowVersion) {
        @Override
        public String toString() {
            return "RunBody[label=" + label + ", run_as=" + (runAs == null ? "none" : runAs.keySet() + " (tokens hidden)") + "]";
        }
    }

    /** Globus' RunActivityNotificationPolicy: the run statuses its owner is told of (default INACTIVE). */
    public record NotificationPolicy(List<String> status) {
        static List<String> statuses(NotificationPolicy policy) {
            if (policy == null) {
                return null;
            }
            if (policy.status() == null) {
                throw EngineError.invalidField("/activity_notification_policy/status",
                        "A policy lists the statuses to notify on, e.g. {\"status\": [\"INACTIVE\", \"FAILED\"]}.");
            }
            return policy.status();
        }
    }

    private final FlowService flows;
    private final RunService runs;
    private final CurrentCaller caller;

    public FlowResource(FlowService flows, RunService runs, CurrentCaller caller) {
        this.flows = flows;
        this.runs = runs;
        this.caller = caller;
    }

    @POST
    @Operation(summary = "Publish a flow (version 1)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> create(FlowBody body) {
        if (body != null && body.flowOwner() != null) {
            throw EngineError.invalidField("/flow_owner", "A new flow belongs to whoever publishes it; hand it over afterwards "
                    + "with PUT /flows/{id} and flow_owner.");
        }
        return flows.create(required(body).draft(), caller.userId()).map(flow ->
                Response.created(URI.create("/flows/" + flow.id())).entity(Views.Flow.of(flow, caller.viewer())).build());
    }

    @POST
    @Path("/validate")
    @Operation(summary = "Check a flow definition and input schema without saving them; lists every problem")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Response validate(ValidateBody body) {
        if (body == null) {
            throw EngineError.invalidField("", "A JSON body with a 'definition' is required.");
        }
        var issues = flows.check(body.definition(), body.inputSchema());
        if (issues.isEmpty()) {
            return Response.ok(new Views.Validation(true, List.of())).build();
        }
        throw EngineError.invalid("Invalid flow", issues.size() + " problem(s) found; see errors.", issues);
    }

    @GET
    @Operation(summary = "List the flows you may see, newest first, in marker-paged pages (Globus' filter_roles, "
            + "filter_fulltext, filter_title, filter_keywords, orderby, marker)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Views.FlowPage> list(@Context UriInfo uri) {
        ListParams params = ListParams.of(uri.getQueryParameters(), Listings.FLOW_PARAMS);
        var query = Listings.flows(params);
        var viewer = caller.viewer();
        return flows.list(query, viewer)
                .map(page -> Listings.page(page, flow -> Views.Flow.of(flow, viewer), query.limit(), params, Views.FlowPage::new));
    }

    @GET
    @Path("/{flowId}")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:view")
    public Uni<Views.Flow> get(@PathParam("flowId") String flowId) {
        return flows.visible(Ids.parse(flowId, "flowId"), caller.viewer()).map(flow -> Views.Flow.of(flow, caller.viewer()));
    }

    @GET
    @Path("/{flowId}/versions")
    @Operation(summary = "List the flow's versions, newest first, in marker-paged pages: who saved each, when, and "
            + "which top-level fields it changed")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:view")
    public Uni<Views.VersionPage> versions(@PathParam("flowId") String flowId, @Context UriInfo uri) {
        ListParams params = ListParams.of(uri.getQueryParameters(), Listings.VERSION_PARAMS);
        var query = new FlowStore.VersionQuery(params.after(), params.limit());
        return flows.history(Ids.parse(flowId, "flowId"), query, caller.viewer())
                .map(page -> Listings.page(page, Views.VersionEntry::of, query.limit(), params, Views.VersionPage::new));
    }

    @GET
    @Path("/{flowId}/versions/{version}")
    @Operation(summary = "One version of the flow as it was saved: definition, input schema, metadata, who saved it and when")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:view")
    public Uni<Views.Version> version(@PathParam("flowId") String flowId, @PathParam("version") String version) {
        var viewer = caller.viewer();
        // the flow first: of a flow they may not see, a caller learns nothing, whatever version they name
        return flows.visible(Ids.parse(flowId, "flowId"), viewer).flatMap(current -> flows.saved(current,
                        ListParams.whole("version", version, 0, 1, Integer.MAX_VALUE))
                .map(saved -> Views.Version.of(saved, current, viewer)));
    }

    @PUT
    @Path("/{flowId}")
    @Operation(summary = "Update a flow: creates a new version; running runs keep theirs. flow_owner hands it over (owners only)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:administer")
    public Uni<Views.Flow> update(@PathParam("flowId") String flowId, FlowBody body) {
        // the body is checked once the caller may update the flow (a viewer hears 403, not what is wrong with it)
        return flows.update(Ids.parse(flowId, "flowId"), body == null ? null : body.draft(), caller.viewer())
                .map(flow -> Views.Flow.of(flow, caller.viewer()));
    }

    @DELETE
    @Path("/{flowId}")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:own")
    public Uni<Response> delete(@PathParam("flowId") String flowId) {
        return flows.delete(Ids.parse(flowId, "flowId"), caller.viewer()).map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{flowId}/run")
    @Operation(summary = "Start a run with an input, of the flow's current version or of the one flow_version names")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:start")
    public Uni<Response> run(@PathParam("flowId") String flowId, RunBody body) {
        RunBody request = body == null ? new RunBody(null, null, null, null, null, null, null, null) : body;
        var credentials = new RunService.Credentials(caller.accessToken(),
                request.runAs() == null ? java.util.Map.of() : request.runAs());
        return runs.start(Ids.parse(flowId, "flowId"), request.flowVersion(), java.util.UUID.randomUUID(),
                        new RunService.StartRequest(request.body(), request.label(), request.tags(), request.runManagers(),
                                request.runMonitors(), NotificationPolicy.statuses(request.activityNotificationPolicy())),
                        caller.viewer(), credentials, caller.email())
                .map(run -> Response.created(URI.create("/runs/" + run.run().id())).entity(Views.Run.of(run, caller.viewer(), false)).build());
    }

    private static FlowBody required(FlowBody body) {
        if (body == null) {
            throw EngineError.invalidField("", "A JSON body is required.");
        }
        return body;
    }
}
