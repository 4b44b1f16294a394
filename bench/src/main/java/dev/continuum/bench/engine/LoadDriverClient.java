package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.continuum.bench.measure.FiveStepFlow;
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

/**
 * The few engine API calls the load driver makes, over one keep-alive HTTP/1.1 client. The driver shares the machine's
 * cores with the engine it measures, so the two calls made per run (start, the ACTIVE list) read only the fields they
 * need. (A Vert.x client cost less CPU, 0.78 against 1.08 ms per run, but lost a read-back request now and then —
 * never answered, no timeout fired — in 3 of 12 benches on 2026-11-29; back on the JDK's client until that is understood.)
 */
public final class LoadDriverClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LIST_LIMIT = 1000;
    private static final long TIMEOUT_SECONDS = 60;

    private final String api;
    private final HttpClient http;
    private final Supplier<Optional<String>> bearer;

    /** What the engine answered: its status code and body. */
    private record Answer(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** The started run's id and whether it was still ACTIVE in the start's answer. */
    public record Started(String runId, boolean active) {}

    public LoadDriverClient(String api) {
        this(api, Optional::empty);
    }

    /** {@code bearer}: the token for each call (an engine with auth on refuses calls without one). */
    public LoadDriverClient(String api, Supplier<Optional<String>> bearer) {
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

    /** Starts a run; the answer names the run and its status as the engine stored it (it may already be final). */
    public Started startRun(String flowId, JsonNode input, String label) {
        ObjectNode body = JSON.createObjectNode().put("label", label);
        body.set("body", input);
        body.putArray("tags").add("bench");
        String path = "/flows/" + flowId + "/run";
        Answer answer = checked("POST", path, body, 201);
        String runId = null;
        String status = null;
        try (JsonParser parser = JSON.getFactory().createParser(answer.body())) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, path);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("run_id".equals(field) && value == JsonToken.VALUE_STRING) {
                    runId = parser.getText();
                } else if ("status".equals(field) && value == JsonToken.VALUE_STRING) {
                    status = parser.getText();
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the engine's answer to POST " + path + " is not JSON", e);
        }
        expect(runId != null && status != null, path);
        return new Started(runId, "ACTIVE".equals(status));
    }

    /** Ids of the runs with this label that are still ACTIVE (at most 1000, which bounds --concurrency). */
    public Set<String> activeRunIds(String label) {
        String path = "/runs?status=ACTIVE&limit=" + LIST_LIMIT + "&label=" + URLEncoder.encode(label, StandardCharsets.UTF_8);
        Answer answer = checked("GET", path, null, 200);
        Set<String> ids = new HashSet<>();
        // only the ids of the page's runs: every other field is skipped unread
        try (JsonParser parser = JSON.getFactory().createParser(answer.body())) {
            expect(parser.nextToken() == JsonToken.START_OBJECT, path);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!"runs".equals(field) || value != JsonToken.START_ARRAY) {
                    parser.skipChildren();
                    continue;
                }
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String name = parser.currentName();
                        if (parser.nextToken() == JsonToken.VALUE_STRING && "run_id".equals(name)) {
                            ids.add(parser.getText());
                        } else {
                            parser.skipChildren();
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the engine's answer to GET " + path + " is not JSON", e);
        }
        return ids;
    }

    private static void expect(boolean shape, String path) {
        if (!shape) {
            throw new IllegalStateException("the engine's answer to " + path + " lacks the fields the driver reads");
        }
    }

    /** {@code GET /runs/{id}}: the run as the API shows it. */
    public JsonNode run(String runId) {
        return send("GET", "/runs/" + runId, null, 200);
    }

    /** {@code GET path} answered 200, as text (e.g. the Prometheus metrics page). */
    public String text(String path) {
        Answer answer = exchange("GET", path, null);
        if (answer.status() != 200) {
            throw new IllegalStateException("GET " + path + " answered HTTP " + answer.status());
        }
        return answer.text();
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
        Answer answer = checked(method, path, body, expected);
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException("the engine's answer to " + method + " " + path + " is not JSON", e);
        }
    }

    private Answer checked(String method, String path, JsonNode body, int expected) {
        Answer answer = exchange(method, path, body);
        if (answer.status() == 401) {
            throw new IllegalStateException(method + " " + path + " answered HTTP 401: the engine wants a token; pass --token, "
                    + "or set CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET (service account, renewed) and --issuer");
        }
        if (answer.status() != expected) {
            throw new IllegalStateException(method + " " + path + " answered HTTP " + answer.status()
                    + " (expected " + expected + "): " + answer.text());
        }
        return answer;
    }

    private Answer exchange(String method, String path, JsonNode body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(TIMEOUT_SECONDS))
                .header("Accept", "application/json");
        bearer.get().ifPresent(token -> request.header("Authorization", "Bearer " + token));
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.body());
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
