package dev.continuum.provider.transfer.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

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
        Instant end = Instant.now().plus(timeout);
        while (Instant.now().isBefore(end)) {
            Answer a = get(provider + "/" + actionId + "/status", caller);
            if (a.status() == 200) {
                String s = a.json().path("status").asText();
                if (s.equals("SUCCEEDED") || s.equals("FAILED")) {
                    return a.json();
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("action " + actionId + " did not finish within " + timeout);
    }
}
