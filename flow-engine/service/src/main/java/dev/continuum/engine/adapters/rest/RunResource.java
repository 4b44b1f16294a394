package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.flow.run.RunStatus;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.Arrays;
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

    private static final int MAX_LOG_PAGE = 1000;

    private final RunService runs;
    private final dev.continuum.engine.app.CurrentCaller caller;

    public RunResource(RunService runs, dev.continuum.engine.app.CurrentCaller caller) {
        this.runs = runs;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "List runs, newest first; filter by flow, status, label or tag")
    public Uni<Views.Page<Views.Run>> list(@QueryParam("flow_id") String flowId, @QueryParam("status") String status,
                                          @QueryParam("label") String label, @QueryParam("tag") String tag,
                                          @QueryParam("limit") @DefaultValue("100") int limit,
                                          @QueryParam("offset") @DefaultValue("0") int offset) {
        Paging.check(limit, offset);
        if (status != null && Arrays.stream(RunStatus.values()).noneMatch(s -> s.name().equals(status))) {
            throw EngineError.invalidField("/status", "status must be one of " + Arrays.toString(RunStatus.values()) + ".");
        }
        RunQuery query = new RunQuery(Optional.ofNullable(flowId).map(id -> Ids.parse(id, "flow_id")),
                Optional.ofNullable(status), Optional.ofNullable(label), Optional.ofNullable(tag), limit + 1, offset);
        return runs.list(query, caller.viewer()).map(found -> Paging.page(found.stream().map(Views.Run::of).toList(), limit, offset));
    }

    @GET
    @Path("/{runId}")
    public Uni<Views.Run> get(@PathParam("runId") String runId) {
        return runs.get(Ids.parse(runId, "runId"), caller.viewer()).map(Views.Run::of);
    }

    @GET
    @Path("/{runId}/log")
    @Operation(summary = "The run's event log in order; page with 'marker' (the last seq seen)")
    public Uni<Views.Log> log(@PathParam("runId") String runId, @QueryParam("limit") @DefaultValue("100") int limit,
                              @QueryParam("marker") @DefaultValue("0") int marker) {
        if (limit < 1 || limit > MAX_LOG_PAGE) {
            throw EngineError.invalidField("/limit", "limit must be between 1 and " + MAX_LOG_PAGE + ".");
        }
        var id = Ids.parse(runId, "runId");
        return runs.log(id, marker, limit + 1, caller.viewer()).map(events -> {
            boolean more = events.size() > limit;
            var page = (more ? events.subList(0, limit) : events).stream().map(Views.Event::of).toList();
            return new Views.Log(id, page, more, page.isEmpty() ? null : page.get(page.size() - 1).seq());
        });
    }

    @POST
    @Path("/{runId}/cancel")
    public Uni<Views.Run> cancel(@PathParam("runId") String runId, String body) {
        String reason = CancelBody.reasonIn(body);
        return runs.cancel(Ids.parse(runId, "runId"), reason, caller.viewer()).map(Views.Run::of);
    }

    @POST
    @Path("/{runId}/resume")
    public Uni<Views.Run> resume(@PathParam("runId") String runId) {
        return runs.resume(Ids.parse(runId, "runId"), caller.viewer(), caller.accessToken()).map(Views.Run::of);
    }

    @POST
    @Path("/{runId}/release")
    @Operation(summary = "Forget a finished run and its log")
    public Uni<Response> release(@PathParam("runId") String runId) {
        return runs.release(Ids.parse(runId, "runId"), caller.viewer()).map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{runId}/callbacks/{token}")
    @Operation(summary = "A provider pushes an action's final status here instead of waiting to be polled")
    public Uni<Response> callback(@PathParam("runId") String runId, @PathParam("token") String token, JsonNode status) {
        return runs.push(Ids.parse(runId, "runId"), token, status).map(v -> Response.accepted().build());
    }
}
