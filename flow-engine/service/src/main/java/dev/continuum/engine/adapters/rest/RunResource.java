package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.EngineError;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.util.List;
import java.util.Optional;

@Path("/runs")
@Produces(MediaType.APPLICATION_JSON)
public class RunResource {

    /** Cancel takes an optional {"reason": "..."}; an empty body is fine. */
    public record CancelBody(String reason) {
        static String reasonIn(String body) {
            if (body == null || body.isBlank()) {
                return "cancelled on request";
            }
            try {
                var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
                return node.path("reason").isTextual() ? node.path("reason").asText() : "cancelled on request";
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw EngineError.invalidField("", "The body is not valid JSON: " + e.getOriginalMessage());
            }
        }
    }

    /** PUT /runs/{id}: Globus' RunUpdate; fields left out stay as they are. */
    public record RunUpdate(String label, List<String> tags, List<String> runManagers, List<String> runMonitors) {}

    private static final int MAX_LOG_PAGE = 1000;

    private final RunService runs;
    private final dev.continuum.engine.app.CurrentCaller caller;
    private final dev.continuum.engine.app.FlowActions flowCalls;

    public RunResource(RunService runs, dev.continuum.engine.app.CurrentCaller caller, dev.continuum.engine.app.FlowActions flowCalls) {
        this.runs = runs;
        this.caller = caller;
        this.flowCalls = flowCalls;
    }

    @GET
    @Operation(summary = "List the runs you may see, newest first, in marker-paged pages (Globus' filter_status, "
            + "filter_flow_id, filter_label, filter_tags, filter_roles, filter_start_time, filter_completion_time, orderby, marker)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Views.RunPage> list(@Context UriInfo uri) {
        ListParams params = ListParams.of(uri.getQueryParameters(), Listings.RUN_PARAMS);
        RunQuery query = Listings.runs(params);
        Viewer viewer = caller.viewer();
        return runs.list(query, viewer)
                .map(page -> Listings.page(page, run -> Views.Run.of(run, viewer, false), query.limit(), params, Views.RunPage::new));
    }

    @GET
    @Path("/{runId}")
    @Operation(summary = "The run; with include_flow_description=true also its flow's title, description and keywords")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Views.Run> get(@PathParam("runId") String runId, @QueryParam("include_flow_description") String withFlow) {
        boolean flow = ListParams.bool("include_flow_description", withFlow);
        return runs.get(Ids.parse(runId, "runId"), caller.viewer()).flatMap(runs::withFlow)
                .flatMap(run -> flowCalls.lineage(run.run().id()).map(lineage -> Views.Run.of(run, caller.viewer(), flow).with(lineage)));
    }

    @PUT
    @Path("/{runId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change the run's label, tags, run_managers or run_monitors (its owner and managers may)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Run> update(@PathParam("runId") String runId, RunUpdate body) {
        // the body is checked once the caller may manage the run (a monitor hears 403, not what is wrong with it)
        return runs.update(Ids.parse(runId, "runId"), body == null ? null : new RunService.RunChange(body.label(), body.tags(),
                        body.runManagers(), body.runMonitors()), caller.viewer())
                .flatMap(runs::withFlow).map(run -> Views.Run.of(run, caller.viewer(), false));
    }

    @GET
    @Path("/{runId}/definition")
    @Operation(summary = "The flow definition and input schema the run was started with")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Views.RunDefinition> definition(@PathParam("runId") String runId) {
        return runs.definition(Ids.parse(runId, "runId"), caller.viewer()).map(Views.RunDefinition::of);
    }

    @GET
    @Path("/{runId}/log")
    @Operation(summary = "The run's event log, oldest first (newest first with reverse_order=true); page with 'marker'")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Views.Log> log(@PathParam("runId") String runId, @QueryParam("limit") String limitParam,
                              @QueryParam("marker") String marker, @QueryParam("reverse_order") String reverseOrder) {
        int limit = ListParams.whole("limit", limitParam, 100, 1, MAX_LOG_PAGE);
        boolean reverse = ListParams.bool("reverse_order", reverseOrder);
        var id = Ids.parse(runId, "runId");
        return runs.log(id, seq(marker), reverse, limit + 1, caller.viewer()).map(events -> {
            boolean more = events.size() > limit;
            var page = (more ? events.subList(0, limit) : events).stream().map(Views.Event::of).toList();
            return new Views.Log(id, limit, page, more, more ? String.valueOf(page.get(page.size() - 1).seq()) : null);
        });
    }

    /** A log marker is the seq of the last entry of the previous page; "0" or none starts at the beginning. */
    private static Optional<Integer> seq(String marker) {
        if (marker == null || marker.isBlank() || marker.equals("0")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(marker.strip()));
        } catch (NumberFormatException e) {
            throw EngineError.invalidField("/marker", "'" + marker + "' is not a log marker; pass the 'marker' of the previous page.");
        }
    }

    @POST
    @Path("/{runId}/cancel")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Run> cancel(@PathParam("runId") String runId, String body) {
        String reason = CancelBody.reasonIn(body);
        return runs.cancel(Ids.parse(runId, "runId"), reason, caller.viewer()).flatMap(runs::withFlow)
                .map(run -> Views.Run.of(run, caller.viewer(), false));
    }

    @POST
    @Path("/{runId}/resume")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Run> resume(@PathParam("runId") String runId) {
        return runs.resume(Ids.parse(runId, "runId"), caller.viewer(), caller.accessToken()).flatMap(runs::withFlow)
                .map(run -> Views.Run.of(run, caller.viewer(), false));
    }

    /** POST /runs/{id}/redrive: both fields optional. */
    public record RedriveBody(String state, JsonNode input) {}

    @POST
    @Path("/{runId}/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start the next attempt of a FAILED run in 'state' (default: where it failed) with 'input' "
            + "(default: the input it had there); its owner and managers may")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Run> redrive(@PathParam("runId") String runId, RedriveBody body) {
        RedriveBody request = body == null ? new RedriveBody(null, null) : body;
        return runs.redrive(Ids.parse(runId, "runId"), new RunService.Redrive(request.state(), request.input()), caller.viewer(),
                        caller.accessToken())
                .flatMap(runs::withFlow).map(run -> Views.Run.of(run, caller.viewer(), false));
    }

    @POST
    @Path("/{runId}/release")
    @Operation(summary = "Forget a finished run and its log")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Response> release(@PathParam("runId") String runId) {
        return runs.release(Ids.parse(runId, "runId"), caller.viewer()).map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{runId}/callbacks/{token}")
    @Operation(summary = "A provider pushes an action's final status here instead of waiting to be polled")
    @Extension(name = OpenApiAccess.EXTENSION, value = "public: a provider pushing an action's completion; the unguessable token in the URL, given only to that provider, is its credential")
    public Uni<Response> callback(@PathParam("runId") String runId, @PathParam("token") String token, JsonNode status) {
        return runs.push(Ids.parse(runId, "runId"), token, status).map(v -> Response.accepted().build());
    }
}
