package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.FlowActions;
import dev.continuum.engine.app.FlowService;
import dev.continuum.engine.app.RunService;
import dev.continuum.flow.run.ActionObservation;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.domain.CallingRun;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.util.List;
import java.util.Optional;

/**
 * Every flow as a Globus action provider at {@code /flows/{flow_id}/actions}: an action is a child run of the flow,
 * started as the caller, and its action id is the run's id. Another engine's Action state reaches a flow here, naming
 * its run and state in {@link CallingRun}'s headers, which link the child to that remote parent; this engine's own
 * calls go in process ({@code adapters/providers/InProcessFlows}) with the same answers.
 */
@Path("/flows/{flowId}/actions")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class FlowActionsResource {

    public record Log(List<Views.Event> entries) {}

    /**
     * The Action Provider API's run document as this endpoint reads it: the SDK's {@code ActionRequest} fields, read
     * strictly like every engine body (a number where a time belongs is refused naming the field, not taken as epoch
     * seconds). {@code release_after} and {@code deadline} are accepted and not acted on: a child run is a run.
     */
    public record RunBody(String requestId, JsonNode body, String label, List<String> tags, List<String> manageBy,
                          List<String> monitorBy, String releaseAfter, String deadline) {}

    private final FlowActions actions;
    private final FlowService flows;
    private final CurrentCaller caller;

    public FlowActionsResource(FlowActions actions, FlowService flows, CurrentCaller caller) {
        this.actions = actions;
        this.flows = flows;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "The flow described as an action provider (Globus introspection): title, input_schema")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:view")
    public Uni<ProviderDescription> introspect(@PathParam("flowId") String flowId) {
        return flows.visible(Ids.parse(flowId, "flowId"), caller.viewer()).map(flow -> ProviderDescription
                .builder(flow.title() == null ? "Flow " + flow.id() : flow.title()).subtitle(flow.subtitle())
                .description(flow.description()).keywords(flow.keywords()).inputSchema(flow.inputSchema()).build());
    }

    @POST
    @Path("/run")
    @Operation(summary = "Start the flow as an action: a child run, one per request_id")
    @Extension(name = OpenApiAccess.EXTENSION, value = "flow:start")
    public Uni<Response> run(@PathParam("flowId") String flowId, RunBody body,
                             @HeaderParam(CallingRun.RUN_HEADER) String parentRun,
                             @HeaderParam(CallingRun.STATE_HEADER) String parentState) {
        RunBody request = body == null ? new RunBody(null, null, null, null, null, null, null, null) : body;
        if (request.deadline() != null) {
            try {
                java.time.OffsetDateTime.parse(request.deadline());
            } catch (java.time.format.DateTimeParseException e) {
                throw EngineError.invalidField("/deadline", "an RFC 3339 time such as 2026-12-31T00:00:00Z");
            }
        }
        return actions.run(Ids.parse(flowId, "flowId"), request.requestId(),
                        new RunService.StartRequest(request.body(), request.label(), request.tags(), List.of(), List.of()),
                        caller.viewer(), new RunService.Credentials(caller.accessToken(), java.util.Map.of()),
                        CallingRun.of(parentRun, parentState).map(FlowActions.Parent::remote))
                .map(status -> Response.status(201).entity(status(status)).build());
    }

    @GET
    @Path("/{runId}/status")
    @Operation(summary = "The child run as an action status")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<ActionStatus> status(@PathParam("flowId") String flowId, @PathParam("runId") String runId) {
        Ids.parse(flowId, "flowId");
        return actions.status(Ids.parse(runId, "runId"), caller.viewer())
                .map(FlowActionsResource::status);
    }

    @POST
    @Path("/{runId}/cancel")
    @Operation(summary = "Cancel the child run")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<ActionStatus> cancel(@PathParam("flowId") String flowId, @PathParam("runId") String runId) {
        Ids.parse(flowId, "flowId");
        return actions.cancel(Ids.parse(runId, "runId"), caller.viewer())
                .map(FlowActionsResource::status);
    }

    @POST
    @Path("/{runId}/release")
    @Operation(summary = "Release the action; the child run stays, released only through /runs/{id}/release")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<ActionStatus> release(@PathParam("flowId") String flowId, @PathParam("runId") String runId) {
        Ids.parse(flowId, "flowId");
        return actions.release(Ids.parse(runId, "runId"), caller.viewer())
                .map(FlowActionsResource::status);
    }

    @GET
    @Path("/{runId}/log")
    @Operation(summary = "The child run's log (its first 100 entries; /runs/{id}/log pages through all)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Log> log(@PathParam("flowId") String flowId, @PathParam("runId") String runId) {
        Ids.parse(flowId, "flowId");
        return actions.log(Ids.parse(runId, "runId"), 100, caller.viewer())
                .map(events -> new Log(events.stream().map(Views.Event::of).toList()));
    }

    private static ActionStatus status(ActionObservation action) {
        return new ActionStatus(action.actionId(), ActionState.valueOf(action.status()), null, null, null, null, null,
                null, null, action.displayStatus(), action.details());
    }
}
