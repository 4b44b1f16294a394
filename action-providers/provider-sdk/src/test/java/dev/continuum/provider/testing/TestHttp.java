package dev.continuum.provider.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import org.awaitility.Awaitility;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** A plain JDK HTTP client, so server tests see exactly what any other client would. */
public final class TestHttp {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public record Reply(int status, String contentType, JsonNode json, String text) {}

    private TestHttp() {}

    public static Reply get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET(), Map.of());
    }

    public static Reply post(String url, String body) {
        return post(url, body, Map.of());
    }

    public static Reply post(String url, String body, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)), headers);
    }

    public static Reply get(String url, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET(), headers);
    }

    private static Reply send(HttpRequest.Builder builder, Map<String, String> headers) {
        headers.forEach(builder::header);
        try {
            HttpResponse<String> r = HTTP.send(builder.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            try {
                json = r.body().isBlank() ? null : ProviderJson.mapper().readTree(r.body());
            } catch (IOException notJson) {
                // leave json null; the test asserts on it
            }
            return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), json, r.body());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("HTTP call to " + builder.build().uri() + " failed", e);
        }
    }

    /** Waits up to {@code timeout} for {@code condition}; fails the test otherwise. */
    public static void await(Duration timeout, String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
    }
}
