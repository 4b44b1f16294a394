package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** The few engine API calls the load driver makes, over one keep-alive HTTP/1.1 client. */
public final class EngineClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LIST_LIMIT = 1000;

    private final String api;
    private final HttpClient http;
    private final Supplier<Optional<String>> bearer;

    public EngineClient(String api) {
        this(api, Optional::empty);
    }

    /** {@code bearer}: the token for each call (an engine with auth on refuses calls without one). */
    public EngineClient(String api, Supplier<Optional<String>> bearer) {
        this.api = FiveStepFlow.trimSlash(api);
        this.bearer = bearer;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Publishes a flow and returns its id. */
    public String publishFlow(String title, JsonNode definition) {
        ObjectNode body = JSON.createObjectNode().put("title", title);
        body.set("definition", definition);
        return send("POST", "/flows", body, 201).path("id").asText();
    }

    /** Starts a run; the answer is the run as the engine stored it (status may already be final). */
    public JsonNode startRun(String flowId, JsonNode input, String label) {
        ObjectNode body = JSON.createObjectNode().put("label", label);
        body.set("body", input);
        body.putArray("tags").add("bench");
        return send("POST", "/flows/" + flowId + "/run", body, 201);
    }

    /** Ids of the runs with this label that are still ACTIVE (at most 1000, which bounds --concurrency). */
    public Set<String> activeRunIds(String label) {
        JsonNode page = send("GET", "/runs?status=ACTIVE&limit=" + LIST_LIMIT + "&label="
                + URLEncoder.encode(label, StandardCharsets.UTF_8), null, 200);
        Set<String> ids = new HashSet<>();
        page.path("runs").forEach(item -> ids.add(item.path("run_id").asText()));
        return ids;
    }

    /** {@code GET /runs/{id}}: the run as the API shows it. */
    public JsonNode run(String runId) {
        return send("GET", "/runs/" + runId, null, 200);
    }

    /** {@code GET path} answered 200, as text (e.g. the Prometheus metrics page). */
    public String text(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60)).GET();
        bearer.get().ifPresent(token -> request.header("Authorization", "Bearer " + token));
        HttpResponse<String> response = exchange(request.build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered HTTP " + response.statusCode());
        }
        return response.body();
    }

    /** The run's status and engine-side times, plus how many log entries (committed transitions) it has. */
    public RunTiming timing(String runId) {
        JsonNode run = run(runId);
        int entries = 0;
        int marker = 0;
        while (true) {
            JsonNode log = send("GET", "/runs/" + runId + "/log?limit=1000&marker=" + marker, null, 200);
            entries += log.path("entries").size();
            if (!log.path("has_next_page").asBoolean(false)) {
                break;
            }
            marker = log.path("marker").asInt();
        }
        return new RunTiming(runId, run.path("status").asText(), instant(run.path("start_time")),
                instant(run.path("completion_time")), entries);
    }

    private JsonNode send(String method, String path, JsonNode body, int expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json");
        bearer.get().ifPresent(token -> request.header("Authorization", "Bearer " + token));
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response = exchange(request.build());
        if (response.statusCode() == 401) {
            throw new IllegalStateException(method + " " + path + " answered HTTP 401: the engine wants a token; pass --token, "
                    + "or set CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET (service account, renewed) and --issuer");
        }
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + " answered HTTP " + response.statusCode()
                    + " (expected " + expected + "): " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("the engine's answer to " + method + " " + path + " is not JSON", e);
        }
    }

    private HttpResponse<String> exchange(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the engine at " + api + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the engine", e);
        }
    }

    private static Instant instant(JsonNode node) {
        return node.isTextual() ? Instant.parse(node.asText()) : null;
    }
}
