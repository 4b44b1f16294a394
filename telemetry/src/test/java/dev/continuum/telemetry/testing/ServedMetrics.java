package dev.continuum.telemetry.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What a running service serves to Prometheus, read as Prometheus would (a plain GET, no token), for the tests that
 * check a dashboard row's metrics against a provider ({@link DashboardQueries}).
 */
public record ServedMetrics(String text) {

    /** GET {@code url} (e.g. {@code http://127.0.0.1:8093/q/metrics}); fails unless it answers 200. */
    public static ServedMetrics scrape(String url) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (reply.statusCode() != 200) {
                throw new AssertionError("GET " + url + " answered " + reply.statusCode());
            }
            return new ServedMetrics(reply.body());
        }
    }

    /** Whether a sample of metric {@code name} is served, with labels or without. */
    public boolean serves(String name) {
        return text.lines().anyMatch(line -> line.startsWith(name + "{") || line.startsWith(name + " "));
    }

    /**
     * The value of one series written as served ({@code name} or {@code name{a="x",b="y",}}, labels in the order
     * Prometheus' text format gives them), 0 when it is not served (a counter not yet incremented).
     */
    public double value(String series) {
        return text.lines().filter(line -> line.startsWith(series + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst().orElse(0);
    }
}
