package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.ActionWatch;
import dev.continuum.engine.app.CurrentCaller;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.util.List;

/** A run's unfinished actions as their providers report them now (the web UI's transfer progress). */
@Path("/runs/{runId}/actions")
@Produces(MediaType.APPLICATION_JSON)
public class RunActionsResource {

    public record ActionList(List<ActionWatch.ActionNow> actions) {}

    private final ActionWatch watch;
    private final CurrentCaller caller;

    public RunActionsResource(ActionWatch watch, CurrentCaller caller) {
        this.watch = watch;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "The run's accepted, unfinished actions, each asked of its provider now: status and details "
            + "(a transfer's bytes_transferred, bytes_total, rate_bytes_per_second, eta_seconds)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<ActionList> list(@PathParam("runId") String runId) {
        return watch.running(Ids.parse(runId, "runId"), caller.viewer()).map(ActionList::new);
    }
}
