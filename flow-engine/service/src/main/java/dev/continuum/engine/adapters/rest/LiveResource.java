package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.adapters.web.WebUiConfig;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestStreamElementType;

import java.util.function.Supplier;

/**
 * Live views for the web UI as server-sent events: the engine looks every {@code continuum.ui.live-interval}
 * and sends the page or run only when it changed (so an idle stream costs one query per interval and no
 * traffic). Same access rules and parameters as GET /runs and GET /runs/{id}; a bearer token is needed as for
 * every API (the browser reads the stream with fetch, which can send the header; EventSource cannot).
 */
@Path("/live")
public class LiveResource {

    private final RunService runs;
    private final CurrentCaller caller;
    private final EventLoop loop;
    private final WebUiConfig config;

    public LiveResource(RunService runs, CurrentCaller caller, EventLoop loop, WebUiConfig config) {
        this.runs = runs;
        this.caller = caller;
        this.loop = loop;
        this.config = config;
    }

    @GET
    @Path("/runs")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "The first page of GET /runs (same parameters), sent again whenever it changes")
    public Multi<Views.RunPage> runs(@Context UriInfo uri) {
        ListParams params = ListParams.of(uri.getQueryParameters(), Listings.RUN_PARAMS);
        RunQuery query = Listings.runs(params);
        Viewer viewer = caller.viewer();
        return changes(() -> runs.list(query, viewer)
                .map(page -> Listings.page(page, run -> Views.Run.of(run, viewer, false), query.limit(), params, Views.RunPage::new)));
    }

    @GET
    @Path("/runs/{runId}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "The run as GET /runs/{id} shows it, sent again whenever it changes")
    @io.smallrye.common.annotation.Blocking
    public Multi<Views.Run> run(@PathParam("runId") String runId) {
        java.util.UUID id = Ids.parse(runId, "runId");
        Viewer viewer = caller.viewer();
        // checked before the stream starts (this worker thread waits), so a run you may not see is a plain 404 problem
        onLoop(() -> runs.get(id, viewer)).await().atMost(java.time.Duration.ofSeconds(30));
        return changes(() -> runs.get(id, viewer).flatMap(runs::withFlow).map(found -> Views.Run.of(found, viewer, false)));
    }

    /** Polls on the engine's event loop (the database clients need a Vert.x context) and drops repeats. */
    private <T> Multi<T> changes(Supplier<Uni<T>> read) {
        Uni<T> onLoop = onLoop(read);
        return Multi.createBy().concatenating().streams(
                        onLoop.toMulti(),
                        // a tick while the last look is still running (a busy machine) is dropped, not a failed stream
                        Multi.createFrom().ticks().every(config.liveInterval()).onOverflow().drop().onItem()
                                .transformToUniAndConcatenate(tick -> onLoop))
                .skip().repetitions();
    }

    private <T> Uni<T> onLoop(Supplier<Uni<T>> read) {
        return Uni.createFrom().emitter(emitter -> loop.execute(() -> read.get().subscribe().with(emitter::complete, emitter::fail)));
    }
}
