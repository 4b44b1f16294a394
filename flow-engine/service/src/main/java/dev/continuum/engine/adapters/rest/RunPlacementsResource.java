package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.adapters.web.WebUiConfig;
import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.RunService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * Where a run's jobs ran and why: the placement planner's decisions about the run ({@code GET /placements?subject=<run>}
 * on the service {@code continuum.ui.planner-url} names), asked by the engine with the caller's own token, so the browser
 * talks to one origin. Only someone who may see the run gets them (404 otherwise, as for the run). Without a planner
 * configured, or when it does not answer, the body says so ({@code planner}: {@code none}, {@code unreachable}) rather
 * than failing: the run page is still useful without it.
 */
@Path("/runs/{runId}/placements")
public class RunPlacementsResource {

    /** Up to this many decisions (one planner page); the page says when there are more. */
    static final int LIMIT = 200;

    private final RunService runs;
    private final CurrentCaller caller;
    private final WebUiConfig config;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public RunPlacementsResource(RunService runs, CurrentCaller caller, WebUiConfig config, ObjectMapper json) {
        this.runs = runs;
        this.caller = caller;
        this.config = config;
        this.json = json;
    }

    /** {@code planner} is none, unreachable or answered; {@code placements} the planner's decisions, oldest first. */
    public record Placements(String planner, String detail, JsonNode placements, boolean more) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The placement planner's decisions about this run's jobs (where each ran and why)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "run:monitor")
    public Uni<Placements> placements(@PathParam("runId") String runId) {
        UUID id = Ids.parse(runId, "runId");
        java.util.Optional<String> token = caller.accessToken();
        return runs.get(id, caller.viewer()) // 404 for a run you may not see
                .flatMap(run -> config.plannerUrl().isEmpty()
                        ? Uni.createFrom().item(new Placements("none",
                                "No placement planner is configured (continuum.ui.planner-url).", json.createArrayNode(), false))
                        : ask(config.plannerUrl().get(), id, token));
    }

    private Uni<Placements> ask(URI planner, UUID run, java.util.Optional<String> token) {
        URI uri = planner.resolve("/placements?limit=" + LIMIT + "&subject=" + URLEncoder.encode(run.toString(), StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Accept", "application/json");
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return Uni.createFrom().completionStage(() -> http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()))
                .map(answer -> {
                    if (answer.statusCode() != 200) {
                        return new Placements("unreachable", "The planner at " + planner + " answered " + answer.statusCode() + ".",
                                json.createArrayNode(), false);
                    }
                    try {
                        JsonNode page = json.readTree(answer.body());
                        return new Placements("answered", "", page.path("placements"), page.hasNonNull("marker"));
                    } catch (IOException e) {
                        return new Placements("unreachable", "The planner at " + planner + " answered something other than JSON.",
                                json.createArrayNode(), false);
                    }
                })
                .onFailure().recoverWithItem(e -> new Placements("unreachable",
                        "The planner at " + planner + " did not answer: " + e, json.createArrayNode(), false));
    }
}
