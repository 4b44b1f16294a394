package dev.continuum.provider.transfer.testing;


import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.awaitility.Awaitility;

/** A client for the Action Provider API as a flow engine would use it: run, status, log, polling. */
public final class Http {

    public record Answer(int status, JsonNode json) {}

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public Http(String base) {
        this.base = base;
    }

    public String base() {
        return base;
    }

    public Answer post(String path, String json, String caller) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (caller != null) {
            b.header("X-Test-Caller", caller);
        }
        return send(b.build());
    }

    public Answer get(String path, String caller) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET();
        if (caller != null) {
            b.header("X-Test-Caller", caller);
        }
        return send(b.build());
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body().isEmpty() ? null : ProviderJson.mapper().readTree(r.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** POST {provider}/run with a fresh request_id. */
    public Answer run(String provider, JsonNode body, String caller) {
        String doc = ProviderJson.mapper().createObjectNode().put("request_id", UUID.randomUUID().toString())
                .set("body", body).toString();
        return post(provider + "/run", doc, caller);
    }

    /** Polls status until SUCCEEDED or FAILED. */
    public JsonNode await(String provider, String actionId, String caller, Duration timeout) {
        return Awaitility.await("action " + actionId + " to finish (SUCCEEDED or FAILED)").atMost(timeout)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> get(provider + "/" + actionId + "/status", caller), a -> a.status() == 200
                        && Set.of("SUCCEEDED", "FAILED").contains(a.json().path("status").asText()))
                .json();
    }
}
