package dev.continuum.engine.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Raw requests to the engine under test: paths sent byte for byte as written (percent-escapes and all), bodies as
 * given, and an answer read only as far as it is not a never-ending event stream.
 */
public final class Http {

    public record Answer(int status, String contentType, Optional<String> header, String body) {

        public boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }

        /** True when errors[] names {@code pointer} or a place inside it. */
        public boolean names(String pointer) {
            for (JsonNode error : json().path("errors")) {
                String at = error.path("pointer").asText(null);
                if (at != null && (at.equals(pointer) || at.startsWith(pointer + "/") || pointer.isEmpty())) {
                    return true;
                }
            }
            return false;
        }

        public String title() {
            return isProblem() ? json().path("title").asText() : "";
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + (body.length() > 300 ? body.substring(0, 300) + "…" : body);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private final String base;

    public Http(int port) {
        this.base = "http://localhost:" + port;
    }

    public String base() {
        return base;
    }

    /**
     * Sends {@code method pathAndQuery}; {@code token} may be null (anonymous), {@code body} null (none).
     * {@code header} names one answer header to keep (Retry-After, WWW-Authenticate).
     */
    public Answer send(String method, String pathAndQuery, String token, String contentType, byte[] body, String header) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(90))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        try {
            HttpResponse<InputStream> answer = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            String type = answer.headers().firstValue("Content-Type").orElse("");
            String text;
            try (InputStream in = answer.body()) {
                // a live view that let us in streams for ever: its headers are the answer
                text = type.startsWith("text/event-stream") ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            return new Answer(answer.statusCode(), type, header == null ? Optional.empty() : answer.headers().firstValue(header), text);
        } catch (IOException e) {
            // the server may answer and close before it has read a body it refuses (413): that is its answer, not ours to lose
            throw new java.io.UncheckedIOException(method + " " + abbreviated(pathAndQuery) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static String abbreviated(String text) {
        return text.length() > 120 ? text.substring(0, 120) + "…(" + text.length() + " chars)" : text;
    }
}
