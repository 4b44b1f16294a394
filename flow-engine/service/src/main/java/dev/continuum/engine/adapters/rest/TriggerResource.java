package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.triggers.TimerService;
import dev.continuum.engine.app.triggers.TriggerService;
import dev.continuum.engine.app.triggers.WebhookService;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.TriggerDraft;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** /triggers: manage triggers, fire one with a sample event, and read what became of its events (docs/triggers.md). */
@Path("/triggers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TriggerResource {

    static final int MAX_LIMIT = 500;

    /** A sample event; with {@code dry_run} nothing starts and the answer shows the run input. */
    public record TestBody(JsonNode event, Boolean dryRun) {}

    private final TriggerService triggers;
    private final WebhookService webhooks;
    private final TimerService timers;
    private final CurrentCaller caller;

    public TriggerResource(TriggerService triggers, WebhookService webhooks, TimerService timers, CurrentCaller caller) {
        this.timers = timers;
        this.triggers = triggers;
        this.webhooks = webhooks;
        this.caller = caller;
    }

    @POST
    @Operation(summary = "Create a trigger: a source bound to a flow; its runs start as you")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> create(TriggerDraft body) {
        return triggers.create(required(body), caller.viewer(), caller.administrator(), caller.accessToken()).flatMap(t -> webhooks.first(t)
                .map(secret -> Response.created(URI.create("/triggers/" + t.id()))
                        .entity(TriggerViews.TriggerView.of(t, caller.viewer(), secret.orElse(null))).build()));
    }

    @GET
    @Operation(summary = "List the triggers you own, administer or view, newest first")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<TriggerViews.TriggerList> list(@QueryParam("limit") String limit) {
        return triggers.list(caller.viewer(), limit(limit, 100)).map(found -> new TriggerViews.TriggerList(
                found.stream().map(t -> TriggerViews.TriggerView.of(t, caller.viewer())).toList()));
    }

    @GET
    @Path("/{id}")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:view")
    public Uni<TriggerViews.TriggerView> get(@PathParam("id") String id) {
        return triggers.get(Ids.parse(id, "id"), caller.viewer()).map(t -> TriggerViews.TriggerView.of(t, caller.viewer()));
    }

    @PUT
    @Path("/{id}")
    @Operation(summary = "Replace a trigger's settings (owner and administrators)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.TriggerView> update(@PathParam("id") String id, TriggerDraft body) {
        // the body is checked once the caller may change the trigger: a viewer hears 403, not what is wrong with it
        return triggers.update(Ids.parse(id, "id"), body, caller.viewer(), caller.administrator(), caller.accessToken())
                .map(t -> TriggerViews.TriggerView.of(t, caller.viewer()));
    }

    @DELETE
    @Path("/{id}")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<Response> delete(@PathParam("id") String id) {
        return triggers.delete(Ids.parse(id, "id"), caller.viewer()).map(v -> Response.noContent().build());
    }

    @POST
    @Path("/{id}/pause")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Pause: events arriving while paused are recorded as rejected and start nothing")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.TriggerView> pause(@PathParam("id") String id) {
        return triggers.pause(Ids.parse(id, "id"), true, caller.viewer()).map(t -> TriggerViews.TriggerView.of(t, caller.viewer()));
    }

    @POST
    @Path("/{id}/resume")
    @Consumes(MediaType.WILDCARD)
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.TriggerView> resume(@PathParam("id") String id) {
        return triggers.pause(Ids.parse(id, "id"), false, caller.viewer()).map(t -> TriggerViews.TriggerView.of(t, caller.viewer()));
    }

    @POST
    @Path("/{id}/test")
    @Operation(summary = "Fire the trigger with a sample event (dry_run: only show the run input it would make)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.Outcome> test(@PathParam("id") String id, TestBody body) {
        return triggers.test(Ids.parse(id, "id"), body == null ? null : body.event(), body != null && Boolean.TRUE.equals(body.dryRun()),
                caller.viewer()).map(TriggerViews.Outcome::of);
    }

    /** An event for an "api" trigger: its sender names it with a dedup key, and a second post of that key starts nothing. */
    public record EventBody(String dedupKey, JsonNode event) {}

    @POST
    @Path("/{id}/events")
    @Operation(summary = "Deliver an event to an 'api' trigger (owner and administrators); 202 with what became of it")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<Response> deliver(@PathParam("id") String id, EventBody body) {
        return triggers.deliver(Ids.parse(id, "id"), body == null ? null : body.dedupKey(), body == null ? null : body.event(),
                        caller.viewer())
                .map(outcome -> Response.accepted(TriggerViews.Outcome.of(outcome)).build());
    }

    @GET
    @Path("/{id}/events")
    @Operation(summary = "The trigger's events, newest first, each with its outcome, in marker-paged pages (limit 1-500, "
            + "default 50; marker: the previous page's)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:view")
    public Uni<TriggerViews.EventList> events(@PathParam("id") String id, @Context UriInfo uri) {
        UUID triggerId = Ids.parse(id, "id");
        ListParams params = ListParams.of(uri.getQueryParameters(), Set.of("limit"));
        int limit = params.integer("limit", 50, 1, MAX_LIMIT);
        return triggers.events(triggerId, eventMarker(params.after()), limit, caller.viewer())
                .map(page -> Listings.page(page, TriggerViews.EventView::of, limit, params, TriggerViews.EventList::new));
    }

    /** An event page ends at an event id; a marker holding anything else was not made for this listing. */
    private static List<String> eventMarker(List<String> after) {
        boolean eventId = after.size() == 1 && after.get(0).matches("[0-9]{1,18}");
        if (!after.isEmpty() && !eventId) {
            throw EngineError.invalidField("/marker", "This marker is not one of this trigger's event pages; pass the "
                    + "'marker' of the previous page unchanged.");
        }
        return after;
    }

    /**
     * A signed delivery (no bearer token: the signature is the credential, AuthGate lets it through). 202 with
     * the outcome; a delivery id seen before → 409; a bad or stale signature → 401 and nothing recorded.
     */
    @POST
    @Path("/{id}/webhook")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Deliver a webhook event: HMAC-SHA256 over timestamp + '.' + body (docs/triggers.md)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "public: a webhook delivery from a system that holds no Continuum token; its HMAC signature under the trigger's secret is its credential")
    public Uni<Response> webhook(@PathParam("id") String id, @HeaderParam("X-Continuum-Delivery") String deliveryId,
                                 @HeaderParam("X-Continuum-Timestamp") String timestamp,
                                 @HeaderParam("X-Continuum-Signature") String signature, byte[] body) {
        return webhooks.receive(Ids.parse(id, "id"), new WebhookService.Delivery(deliveryId, timestamp, signature,
                        body == null ? new byte[0] : body))
                .map(outcome -> Response.status(outcome instanceof EventOutcome.Duplicate ? 409 : 202)
                        .entity(TriggerViews.Outcome.of(outcome)).build());
    }

    @POST
    @Path("/{id}/webhook/secrets")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Make a new webhook secret; the previous one stays valid until the next rotation")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<Response> rotate(@PathParam("id") String id) {
        return webhooks.rotate(Ids.parse(id, "id"), caller.viewer())
                .map(secret -> Response.status(201).entity(new TriggerViews.Webhook("/triggers/" + id + "/webhook",
                        secret.secretId(), secret.secret())).build());
    }

    /**
     * A range of a timer's schedule to fire now, e.g. after the flow was fixed: ISO-8601 instants as text (a bare
     * number is refused, not read as seconds since 1970), read once the caller may fire the trigger.
     */
    public record BackfillBody(String from, String to) {}

    @POST
    @Path("/{id}/fire")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Fire a timer trigger now, outside its schedule")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.Outcome> fireNow(@PathParam("id") String id) {
        return timers.fireNow(Ids.parse(id, "id"), caller.viewer()).map(TriggerViews.Outcome::of);
    }

    @POST
    @Path("/{id}/backfill")
    @Operation(summary = "Fire every tick of a timer's schedule in [from, to); ticks already fired start nothing")
    @Extension(name = OpenApiAccess.EXTENSION, value = "trigger:administer")
    public Uni<TriggerViews.Outcomes> backfill(@PathParam("id") String id, BackfillBody body) {
        return timers.backfill(Ids.parse(id, "id"), body == null ? null : body.from(), body == null ? null : body.to(), caller.viewer())
                .map(all -> new TriggerViews.Outcomes(all.stream().map(TriggerViews.Outcome::of).toList()));
    }

    static int limit(String limit, int fallback) {
        return ListParams.whole("limit", limit, fallback, 1, MAX_LIMIT);
    }

    private static TriggerDraft required(TriggerDraft body) {
        if (body == null) {
            throw EngineError.invalidField("", "A JSON body is required.");
        }
        return body;
    }
}
