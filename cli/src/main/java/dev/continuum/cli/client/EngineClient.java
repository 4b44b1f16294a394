package dev.continuum.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The engine's REST API as plain calls returning JSON. Refusals become {@link ApiProblem}; a missing engine becomes
 * {@link EngineUnreachable}, so commands never see raw HTTP or socket errors.
 */
public final class EngineClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final String api;
    private final HttpClient http;
    private final ObjectMapper json;
    private final Supplier<Optional<String>> bearer;

    public EngineClient(String api, ObjectMapper json) {
        this(api, json, Optional::empty);
    }

    /** {@code bearer} gives the token for each call (asked every time: a stored sign-in may need renewing). */
    public EngineClient(String api, ObjectMapper json, Supplier<Optional<String>> bearer) {
        this.api = api.endsWith("/") ? api.substring(0, api.length() - 1) : api;
        this.json = json;
        this.bearer = bearer;
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();
    }

    public String api() {
        return api;
    }

    public JsonNode createFlow(ObjectNode document) {
        return send("POST", "/flows", document);
    }

    public JsonNode updateFlow(String flowId, ObjectNode document) {
        return send("PUT", "/flows/" + segment(flowId), document);
    }

    public JsonNode validateFlow(ObjectNode definitionAndSchema) {
        return send("POST", "/flows/validate", definitionAndSchema);
    }

    /** One page of flows (Globus' list shape: "flows", "has_next_page", "marker"). */
    public JsonNode listFlows(int limit, Optional<String> marker) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("limit", String.valueOf(limit));
        marker.ifPresent(m -> params.put("marker", m));
        return send("GET", "/flows" + query(params), null);
    }

    public JsonNode startRun(String flowId, ObjectNode request) {
        return send("POST", "/flows/" + segment(flowId) + "/run", request);
    }

    public JsonNode run(String runId) {
        return send("GET", "/runs/" + segment(runId), null);
    }

    /** One page of the run log: entries with a sequence number above {@code marker}. */
    public JsonNode log(String runId, int marker, int limit) {
        return send("GET", "/runs/" + segment(runId) + "/log"
                + query(Map.of("marker", String.valueOf(marker), "limit", String.valueOf(limit))), null);
    }

    public JsonNode listRuns(RunFilter filter) {
        Map<String, String> params = new LinkedHashMap<>();
        filter.flowId().ifPresent(v -> params.put("flow_id", v));
        filter.status().ifPresent(v -> params.put("status", v));
        filter.label().ifPresent(v -> params.put("label", v));
        filter.tag().ifPresent(v -> params.put("tag", v));
        params.put("limit", String.valueOf(filter.limit()));
        filter.marker().ifPresent(m -> params.put("marker", m));
        return send("GET", "/runs" + query(params), null);
    }

    public JsonNode cancel(String runId, Optional<String> reason) {
        ObjectNode body = json.createObjectNode();
        reason.ifPresent(r -> body.put("reason", r));
        return send("POST", "/runs/" + segment(runId) + "/cancel", body);
    }

    public JsonNode resume(String runId) {
        return send("POST", "/runs/" + segment(runId) + "/resume", null);
    }

    public void release(String runId) {
        send("POST", "/runs/" + segment(runId) + "/release", null);
    }

    /** Changes a run's label, tags, managers or monitors; fields the body leaves out stay as they are. */
    public JsonNode updateRun(String runId, ObjectNode changes) {
        return send("PUT", "/runs/" + segment(runId), changes);
    }

    /** Starts a FAILED run's next attempt; {@code request} may name the state and that state's input. */
    public JsonNode redrive(String runId, ObjectNode request) {
        return send("POST", "/runs/" + segment(runId) + "/redrive", request);
    }

    public void deleteFlow(String flowId) {
        send("DELETE", "/flows/" + segment(flowId), null);
    }

    /** One page of a flow's versions, newest first. */
    public JsonNode flowVersions(String flowId, int limit, Optional<String> marker) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("limit", String.valueOf(limit));
        marker.ifPresent(m -> params.put("marker", m));
        return send("GET", "/flows/" + segment(flowId) + "/versions" + query(params), null);
    }

    /** The caller's offline grants to the engine, newest first, each with the runs acting through it. */
    public JsonNode grants() {
        return send("GET", "/grants", null);
    }

    public void revokeGrant(String grantId) {
        send("DELETE", "/grants/" + segment(grantId), null);
    }

    /** Begins an offline-access consent; the answer's {@code authorization_url} is for the person's browser. */
    public JsonNode beginConsent() {
        return send("POST", "/grants/consent", null);
    }

    /** Any other call of the API (the trigger commands): {@code body} null for none. */
    public JsonNode call(String method, String path, JsonNode body) {
        return send(method, path, body);
    }

    /** One path segment, escaped (an id typed by a person may hold anything). */
    public static String pathSegment(String value) {
        return segment(value);
    }

    /**
     * One page of the placement planner's decision log about {@code subject} (a request/action id or a run id),
     * oldest first; this client must point at the planner service.
     */
    public JsonNode placements(String subject, int limit, Optional<String> marker) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("subject", subject);
        params.put("limit", String.valueOf(limit));
        marker.ifPresent(m -> params.put("marker", m));
        return send("GET", "/placements" + query(params), null);
    }

    /** The planner's arrival forecasts for one site ({@code GET /forecasts?site=}). */
    public JsonNode forecasts(String site) {
        return send("GET", "/forecasts" + query(Map.of("site", site)), null);
    }

    /** What {@code GET /runs} may be narrowed by; empty means no filter. */
    public record RunFilter(Optional<String> flowId, Optional<String> status, Optional<String> label,
                            Optional<String> tag, int limit, Optional<String> marker) {}

    private JsonNode send(String method, String path, JsonNode body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json, application/problem+json");
        bearer.get().ifPresent(token -> request.header("Authorization", "Bearer " + token));
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // Refused, reset, timed out or unresolvable: in every case no answer came from an engine.
            throw new EngineUnreachable(api, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnreachable(api, e);
        }
        JsonNode parsed = parse(response.body());
        if (response.statusCode() >= 400) {
            throw new ApiProblem(Problem.from(response.statusCode(), parsed, response.body()));
        }
        return parsed == null ? json.nullNode() : parsed;
    }

    private JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private String write(JsonNode body) {
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    private static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(Map<String, String> params) {
        return params.isEmpty() ? "" : "?" + params.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }
}
