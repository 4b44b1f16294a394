package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.OfflineAccess;
import dev.continuum.engine.app.PersonGrants;
import dev.continuum.engine.domain.EngineError;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
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

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The offline grants a person gives the engine so their runs outlive their sign-in sessions (docs/auth.md,
 * ADR 0005): list them with the runs that depend on each, revoke one, and give a new one by consent.
 */
@Path("/grants")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class GrantResource {

    static final String CALLBACK = "/grants/consent/callback";

    public record GrantView(UUID id, Instant created_at, String status, String revoked_by, Instant revoked_at, List<UUID> runs) {}

    public record GrantList(List<GrantView> grants) {}

    public record ConsentStart(String authorization_url) {}

    public record Granted(UUID id, String status) {}

    private final PersonGrants grants;
    private final OfflineAccess offline;
    private final CurrentCaller caller;

    public GrantResource(PersonGrants grants, OfflineAccess offline, CurrentCaller caller) {
        this.grants = grants;
        this.offline = offline;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Your offline grants to the engine, newest first, each with the runs that act through it")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public GrantList list() {
        return new GrantList(grants.list(caller.userId()).stream().map(listed -> new GrantView(listed.grant().id(),
                listed.grant().createdAt(), listed.grant().revoked() ? "REVOKED" : "ACTIVE",
                listed.grant().revokedBy().orElse(null), listed.grant().revokedAt().orElse(null), listed.runs())).toList());
    }

    @DELETE
    @Path("/{grantId}")
    @Operation(summary = "Revoke one of your offline grants: the runs acting through it go INACTIVE at their next provider call")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Response revoke(@PathParam("grantId") String grantId) {
        if (!offline.revoke(Ids.parse(grantId, "grantId"), caller.userId())) {
            throw EngineError.notFound("grant", grantId);
        }
        return Response.noContent().build();
    }

    @POST
    @Path("/consent")
    @Operation(summary = "Start giving the engine offline access: open authorization_url in a browser, sign in and consent")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public ConsentStart consent(@Context UriInfo uri) {
        return new ConsentStart(offline.beginConsent(caller.userId(),
                uri.getBaseUriBuilder().path(CALLBACK).build().toString()).toString());
    }

    @GET
    @Path("/consent/callback")
    @Operation(summary = "Where the identity provider returns after the consent; stores the offline grant")
    @Extension(name = OpenApiAccess.EXTENSION, value = "public: the identity provider's redirect after a consent; the "
            + "one-time state, bound to the person who started the consent, and the code are its credential")
    public Granted callback(@QueryParam("state") String state, @QueryParam("code") String code) {
        return new Granted(offline.completeConsent(state, code), "ACTIVE");
    }
}
