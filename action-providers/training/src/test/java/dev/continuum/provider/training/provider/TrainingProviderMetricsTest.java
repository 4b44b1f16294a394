package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.telemetry.testing.DashboardQueries;
import dev.continuum.telemetry.testing.ServedMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The training provider as an operator starts it serves the dashboard's provider metrics (row "Providers"). */
class TrainingProviderMetricsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir Path work;

    @Test
    void shouldServeACancelledJobAsAFailedActionOnItsMetricsPath() throws Exception {
        try (ProviderProcess provider = ProviderProcess.start(work.resolve("provider.log"), Map.of(), "--port", "0",
                "--host", "127.0.0.1", "--work-dir", work.resolve("jobs").toString(), "--gpu-slots", "1")) {
            String id = send(provider.url() + "/run", """
                    {"request_id": "%s", "body": {"command": ["sh", "-c", "sleep 60"], "gpus_max": 1,
                     "time_limit_seconds": 600}}""".formatted(UUID.randomUUID())).path("action_id").asText();
            send(provider.url() + "/" + id + "/cancel", "");
            await("the cancelled action " + id + " to be FAILED").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).until(() -> status(provider, id), "FAILED"::equals);

            ServedMetrics served = ServedMetrics.scrape(URI.create(provider.url()).resolve("/q/metrics").toString());
            assertThat(served.value("continuum_provider_actions_total{provider=\"training\",status=\"FAILED\",}"))
                    .as(provider.log()).isEqualTo(1);
            assertThat(DashboardQueries.metrics(Path.of("../.."), "Providers")).filteredOn(name -> name.startsWith("continuum_provider_"))
                    .isNotEmpty().allMatch(served::serves);
        }
    }

    private static String status(ProviderProcess provider, String id) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(provider.url() + "/" + id + "/status")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("status").asText();
    }

    private static JsonNode send(String url, String body) throws Exception {
        HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isIn(200, 202);
        return JSON.readTree(reply.body());
    }
}
