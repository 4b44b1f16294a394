package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.HumanInputs;
import dev.continuum.engine.app.RunService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

/** Human input: the forms a run waits on, and their answers (docs/api.md, "Human input"). */
@Path("/runs/{runId}/inputs")
@Produces(MediaType.APPLICATION_JSON)
public class InputResource {

    private final HumanInputs inputs;
    private final RunService runs;
    private final CurrentCaller caller;

    public InputResource(HumanInputs inputs, RunService runs, CurrentCaller caller) {
        this.inputs = inputs;
        this.runs = runs;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "The forms the run waits on (anyone who may see the run may list them)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Views.Inputs> list(@PathParam("runId") String runId) {
        var id = Ids.parse(runId, "runId");
        return inputs.pending(id, caller.viewer())
                .map(found -> new Views.Inputs(id, found.stream().map(p -> Views.Input.of(p.state())).toList()));
    }

    @GET
    @Path("/{stateName}")
    @Operation(summary = "The form waiting in a state: title, description, JSON schema; for its owner, managers and selectable_by")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Input> form(@PathParam("runId") String runId, @PathParam("stateName") String stateName) {
        return inputs.form(Ids.parse(runId, "runId"), stateName, caller.viewer()).map(p -> Views.Input.of(p.state()));
    }

    @POST
    @Path("/{stateName}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Answer the form: the body must satisfy its schema (400 names the field), is taken once (409 after), "
            + "and is placed at the state's ResultPath as the action's details")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:manage")
    public Uni<Views.Run> submit(@PathParam("runId") String runId, @PathParam("stateName") String stateName, JsonNode answer) {
        return inputs.submit(Ids.parse(runId, "runId"), stateName, answer, caller.viewer()).flatMap(runs::withFlow)
                .map(run -> Views.Run.of(run, caller.viewer(), false));
    }
}
