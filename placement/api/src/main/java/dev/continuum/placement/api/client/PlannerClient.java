package dev.continuum.placement.api.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.placement.api.Completion;
import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.api.PlacementView;
import dev.continuum.placement.api.PlannerJson;
import dev.continuum.placement.api.ReportedDecision;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Talks to the placement planner service (docs/placement.md): asks it where a job runs ({@code POST /placements}),
 * reads back a job's decisions ({@code GET /placements/{id}}), records a decision the caller made itself, tells it a job finished, what a transfer measured and
 * which partitions a training backend offers. The requests and answers are the planner contract's records
 * ({@link PlacementBody}, {@link PlacementView}, {@link Completion}; JSON in and out where a caller has its own JSON).
 * Pure JDK HTTP and Jackson, so it lives beside the records (placement/api) and every caller — the inference,
 * training and transfer providers — uses it without the provider SDK's server. Every call carries a bearer token from {@code token} (a service account's, e.g. the realm's
 * {@code continuum-planner-reporter}); blocking JDK HTTP: call it from a worker thread. Thread-safe.
 */
public final class PlannerClient {

    /** The planner answered with an error: its status and RFC 9457 problem body (null when it sent none). */
    public static final class PlannerException extends RuntimeException {
        private final int status;
        private final transient JsonNode problem;

        PlannerException(String message, int status, JsonNode problem) {
            super(message);
            this.status = status;
            this.problem = problem;
        }

        /** The HTTP status, or 0 when the planner could not be reached. */
        public int status() {
            return status;
        }

        public JsonNode problem() {
            return problem;
        }
    }

    private static final ObjectMapper JSON = PlannerJson.mapper();

    private final URI base;
    private final Supplier<String> token;
    private final HttpClient http;
    private final Duration timeout;

    public PlannerClient(URI base, Supplier<String> token) {
        this(base, token, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), Duration.ofSeconds(15));
    }

    public PlannerClient(URI base, Supplier<String> token, HttpClient http, Duration timeout) {
        String b = base.toString();
        this.base = URI.create(b.endsWith("/") ? b : b + "/");
        this.token = token;
        this.http = http;
        this.timeout = timeout;
    }

    public URI base() {
        return base;
    }

    /** {@code POST /placements}: the job and its decision ({@code site}, {@code decisions[0].decision}). */
    public JsonNode place(JsonNode request) {
        return send("POST", "placements", request);
    }

    /** {@code POST /placements} with the contract's request: the job, its decisions and what they did to others. */
    public PlacementView place(PlacementBody request) {
        return view(place(JSON.<JsonNode>valueToTree(request)));
    }

    /** {@code GET /placements/{id}}: the job's latest {@code status}/{@code site} and every decision about it. */
    public PlacementView placement(String id) {
        return view(send("GET", "placements/" + segment(id), null));
    }

    /** {@code POST /placements/{id}/completion}: the job finished on {@code site}; the cost model learns its time. */
    public JsonNode completed(String id, String site, long computeMillis) {
        return completed(id, site, new Measured(computeMillis, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED));
    }

    /** A term the caller did not measure: left out of the completion, so the planner learns nothing from it. */
    public static final long NOT_MEASURED = Completion.NOT_MEASURED;

    /**
     * What a finished job took, in milliseconds ({@link #NOT_MEASURED} = not measured): the site's compute per task,
     * its queue, moving the input there, and the rest of the round trip ({@code overhead}: the task's and result's
     * trips, decoding, spooling). The planner learns compute and overhead, and from the transfer time the bandwidth of
     * the link the input came over.
     */
    public record Measured(long computeMillis, long queuedMillis, long transferMillis, long overheadMillis) {}

    /** {@code POST /placements/{id}/completion} with every term measured. */
    public JsonNode completed(String id, String site, Measured measured) {
        Completion body = Completion.of(site, measured.computeMillis(), measured.queuedMillis(),
                measured.transferMillis(), measured.overheadMillis());
        return send("POST", "placements/" + segment(id) + "/completion", JSON.valueToTree(body));
    }

    /**
     * {@code POST /placements/{id}/decisions}: a decision this caller made itself about job {@code id} (the training
     * provider's in-process planner), for the planner's decision log.
     */
    public JsonNode reportDecision(String id, ReportedDecision decision) {
        return send("POST", "placements/" + segment(id) + "/decisions", JSON.valueToTree(decision));
    }

    /** {@code POST /inventory/transfers}: a finished transfer moved {@code bytes} in {@code seconds} between the endpoints. */
    public JsonNode transferMeasured(String fromEndpoint, String toEndpoint, long bytes, double seconds) {
        ObjectNode body = JSON.createObjectNode().put("fromEndpoint", fromEndpoint).put("toEndpoint", toEndpoint)
                .put("bytes", bytes).put("seconds", seconds);
        return send("POST", "inventory/transfers", body);
    }

    /** {@code PUT /inventory/partitions}: a training backend's site as it is now (its {@code BackendInventory}). */
    public JsonNode reportPartitions(JsonNode backendInventory) {
        return send("PUT", "inventory/partitions", backendInventory);
    }

    /** {@code DELETE /inventory/sites/{site}}: the backend is gone. */
    public void removeSite(String site) {
        send("DELETE", "inventory/sites/" + segment(site), null);
    }

    private JsonNode send(String method, String path, JsonNode body) {
        HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Accept", "application/json");
        String bearer = token.get();
        if (bearer != null) {
            req.header("Authorization", "Bearer " + bearer);
        }
        try {
            req.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            if (body != null) {
                req.header("Content-Type", "application/json");
            }
            HttpResponse<byte[]> answer = http.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode json = answer.body().length == 0 ? null : readOrNull(answer.body());
            if (answer.statusCode() / 100 != 2) {
                String detail = json != null && json.hasNonNull("detail") ? json.get("detail").asText()
                        : json != null && json.hasNonNull("title") ? json.get("title").asText() : "";
                throw new PlannerException(method + " " + path + ": HTTP " + answer.statusCode()
                        + (detail.isEmpty() ? "" : " " + detail), answer.statusCode(), json);
            }
            return json;
        } catch (IOException e) {
            throw new PlannerException(method + " " + base.resolve(path) + ": " + e, 0, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PlannerException(method + " " + path + ": interrupted", 0, null);
        }
    }

    private PlacementView view(JsonNode answer) {
        try {
            return JSON.treeToValue(answer, PlacementView.class);
        } catch (IOException e) {
            throw new PlannerException("the planner's answer is not a placement: " + e.getMessage(), 0, null);
        }
    }

    private static JsonNode readOrNull(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null; // not JSON (a proxy's error page): the status says enough
        }
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "PlannerClient[" + base + "]";
    }
}
