package dev.continuum.engine.adapters.web;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import dev.continuum.engine.adapters.rest.OpenApiAccess;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The planner's read endpoints on the engine's origin, for the web UI's devices and clusters page: the browser never
 * calls another origin. The user's own bearer token goes along (the planner accepts the engine's audience) and the
 * planner decides what they may read; nothing is cached or added. Without {@code continuum.ui.planner-url} the answer
 * is a 503 problem saying so, which the page shows.
 */
@Path("/ops/planner")
@Produces(MediaType.APPLICATION_JSON)
public class PlannerRelay {

    /** The decision log's filters (docs/placement.md); anything else is not passed on. */
    private static final List<String> LOG_FILTERS = List.of("subject", "kind", "site", "status", "from", "to", "limit", "marker");

    private final WebUiConfig ui;
    private final HttpRelay planner = new HttpRelay("planner");

    public PlannerRelay(WebUiConfig ui) {
        this.ui = ui;
    }

    @GET
    @Path("/inventory")
    @Operation(summary = "The planner's sites now: online, queue, loaded models, GPUs and their recent readings")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> inventory(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return relay("/inventory", authorization);
    }

    @GET
    @Path("/placements")
    @Operation(summary = "The planner's decision log (placed, queued, preempted, moved), filtered as the planner's GET /placements")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<Response> placements(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, @Context UriInfo uri) {
        String query = LOG_FILTERS.stream().filter(uri.getQueryParameters()::containsKey)
                .map(k -> k + "=" + URLEncoder.encode(uri.getQueryParameters().getFirst(k), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return relay("/placements" + (query.isEmpty() ? "" : "?" + query), authorization);
    }

    private Uni<Response> relay(String path, String authorization) {
        if (ui.plannerUrl().isEmpty()) {
            return Uni.createFrom().item(HttpRelay.problem(503, "not-configured", "No planner configured",
                    "This engine has no continuum.ui.planner-url, so it knows no placement planner to ask."));
        }
        String base = ui.plannerUrl().get().toString().replaceAll("/+$", "");
        return planner.send("GET", URI.create(base + path), authorization, Optional.empty());
    }
}
