package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.adapters.messaging.RunEventFeeds;
import dev.continuum.engine.app.RunChanged;
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
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.jboss.resteasy.reactive.RestStreamElementType;

import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Live views for the web UI as server-sent events, fed by the run-event stream (RunEventFeeds): a committed change
 * makes the engine look again at once and send the page or run if it changed (an ACTIVE run on every look: its log grows
 * under the same document). Changes the stream does not carry —
 * those committed by another engine instance, a label edited with PUT, an event lost in a crash — are found by a
 * look every {@code continuum.ui.live-interval} (default 5 s), so the list stays the source of truth. Looks are never
 * stacked: changes that come while one is under way make one more look after it. Same access rules and parameters as GET /runs and GET /runs/{id}; a bearer token is needed as for
 * every API (the browser reads the stream with fetch, which can send the header; EventSource cannot).
 */
@Path("/live")
public class LiveResource {

    private final RunService runs;
    private final CurrentCaller caller;
    private final EventLoop loop;
    private final WebUiConfig config;
    private final RunEventFeeds feeds;

    public LiveResource(RunService runs, CurrentCaller caller, EventLoop loop, WebUiConfig config, RunEventFeeds feeds) {
        this.feeds = feeds;
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
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Multi<Views.RunPage> runs(@Context UriInfo uri) {
        ListParams params = ListParams.of(uri.getQueryParameters(), Listings.RUN_PARAMS);
        RunQuery query = Listings.runs(params);
        Viewer viewer = caller.viewer();
        return changes(change -> true, () -> runs.list(query, viewer)
                .map(page -> Listings.page(page, run -> Views.Run.of(run, viewer, false), query.limit(), params, Views.RunPage::new)),
                Object::equals);
    }

    @GET
    @Path("/runs/{runId}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "The run as GET /runs/{id} shows it, sent again whenever it changes")
    @io.smallrye.common.annotation.Blocking
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Multi<Views.Run> run(@PathParam("runId") String runId) {
        java.util.UUID id = Ids.parse(runId, "runId");
        Viewer viewer = caller.viewer();
        // checked before the stream starts (this worker thread waits), so a run you may not see is a plain 404 problem
        onLoop(() -> runs.get(id, viewer)).await().atMost(java.time.Duration.ofSeconds(30));
        return changes(change -> change.runId().equals(id), () -> runs.get(id, viewer).flatMap(runs::withFlow).map(found -> Views.Run.of(found, viewer, false)),
                LiveResource::sameFinishedOrWaiting);
    }

    /**
     * An ACTIVE run's document stays the same from step to step while its log grows, so it is sent on every look: the
     * page reads the new log entries then. Another status repeats only when nothing happened.
     */
    private static boolean sameFinishedOrWaiting(Views.Run before, Views.Run after) {
        return before.equals(after) && !"ACTIVE".equals(after.status());
    }

    /**
     * Reads on the engine's event loop (the database clients need a Vert.x context) when a relevant change comes or the
     * fallback interval passes, and drops repeats. A signal that comes during a read is kept (the latest only), so the
     * change it stands for is never missed and a burst of changes costs one more read, not one each. A read that is
     * {@code same} as the one sent before it is not sent.
     */
    private <T> Multi<T> changes(Predicate<RunChanged> relevant, Supplier<Uni<T>> read, BiPredicate<T, T> same) {
        Uni<T> onLoop = onLoop(read);
        Multi<Object> signals = Multi.createBy().merging().streams(
                feeds.changes().select().where(relevant).onItem().castTo(Object.class),
                Multi.createFrom().ticks().every(config.liveInterval()).onItem().castTo(Object.class));
        return Multi.createBy().concatenating().streams(onLoop.toMulti(),
                        signals.onOverflow().dropPreviousItems().onItem().transformToUniAndConcatenate(signal -> onLoop))
                .skip().repetitions((before, after) -> same.test(before, after) ? 0 : 1);
    }

    private <T> Uni<T> onLoop(Supplier<Uni<T>> read) {
        return Uni.createFrom().emitter(emitter -> loop.execute(() -> read.get().subscribe().with(emitter::complete, emitter::fail)));
    }
}
