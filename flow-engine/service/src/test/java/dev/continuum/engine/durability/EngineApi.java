package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The engine's public REST API, as a scientist's script would use it; nothing else of the engine is visible. */
final class EngineApi {

    /** One entry of GET /runs/{id}/log. */
    record LogLine(int seq, String code, String stateName, JsonNode details) {}

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String baseUrl;

    EngineApi(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    String baseUrl() {
        return baseUrl;
    }

    String publishFlow(String title, JsonNode definition) {
        ObjectNode body = JSON.createObjectNode().put("title", title);
        body.set("definition", definition);
        return send("POST", "/flows", body, 201).path("id").asText();
    }

    String startRun(String flowId, JsonNode input, String label) {
        ObjectNode body = JSON.createObjectNode().put("label", label);
        body.set("body", input);
        return send("POST", "/flows/" + flowId + "/run", body, 201).path("run_id").asText();
    }

    /** POST /triggers; the new trigger's id. */
    String createTrigger(JsonNode trigger) {
        return send("POST", "/triggers", trigger, 201).path("id").asText();
    }

    String status(String runId) {
        return send("GET", "/runs/" + runId, null, 200).path("status").asText();
    }

    JsonNode run(String runId) {
        return send("GET", "/runs/" + runId, null, 200);
    }

    /** The whole log of a run, following the pages. */
    List<LogLine> log(String runId) {
        List<LogLine> lines = new ArrayList<>();
        int marker = 0;
        while (true) {
            JsonNode page = send("GET", "/runs/" + runId + "/log?limit=1000&marker=" + marker, null, 200);
            for (JsonNode entry : page.path("entries")) {
                lines.add(new LogLine(entry.path("seq").asInt(), entry.path("code").asText(),
                        entry.path("state_name").asText(null), entry.path("details")));
            }
            if (!page.path("has_next_page").asBoolean(false)) {
                return lines;
            }
            marker = page.path("marker").asInt();
        }
    }

    /** State transitions this instance has committed since it started (its Prometheus counter). */
    double transitionsCommitted() {
        String metrics = text("/q/metrics");
        return metrics.lines().filter(line -> line.startsWith("continuum_transitions_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    boolean isReady() {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/q/health/ready"))
                    .timeout(Duration.ofSeconds(2)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code POST /providers/NAME/run} at this engine's own built-in provider; answers the action, new or found by request_id. */
    JsonNode runBuiltin(String provider, JsonNode request) {
        HttpRequest post = HttpRequest.newBuilder(URI.create(baseUrl + "/providers/" + provider + "/run"))
                .timeout(Duration.ofSeconds(15)).header("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString())).build();
        try {
            return JSON.readTree(exchange(post, 200, 201, 202));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code GET /providers/NAME/ID/status} at this engine's own built-in provider. */
    JsonNode builtinStatus(String provider, String actionId) {
        try {
            return JSON.readTree(text("/providers/" + provider + "/" + actionId + "/status"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String text(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10)).GET().build();
        return exchange(request, 200);
    }

    private JsonNode send(String method, String path, JsonNode body, int expectedStatus) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(15))
                .header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        }
        try {
            return JSON.readTree(exchange(request.build(), expectedStatus));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String exchange(HttpRequest request, int... expectedStatus) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (Arrays.stream(expectedStatus).noneMatch(status -> status == response.statusCode())) {
                throw new AssertionError(request.method() + " " + request.uri() + " answered " + response.statusCode()
                        + " (expected " + Arrays.toString(expectedStatus) + "): " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
