package dev.continuum.provider.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.telemetry.testing.DashboardQueries;
import dev.continuum.telemetry.testing.ServedMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferProviderMainTest {

    private static final List<String> PROVIDERS = List.of("transfer", "ls", "mkdir", "delete");

    @TempDir Path tmp;

    @Test
    void shouldStopEveryProviderWhenTheLauncherClosesWhatTheMainMounted() throws Exception {
        Path endpoints = tmp.resolve("endpoints.json");
        Files.createDirectories(tmp.resolve("data"));
        Files.writeString(endpoints, """
                {"endpoints": [{"id": "dc", "type": "directory", "root": "data", "owner": "alice"}]}""");
        TransferProviderMain.Settings settings = TransferProviderMain.parse(new String[] {
                "--endpoints", endpoints.toString(), "--state", tmp.resolve("state").toString()});
        TransferOptions options = TransferOptions.defaults();
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            AutoCloseable atShutdown = TransferProviderMain.mount(settings, EndpointConfig.load(endpoints, options.chunkBytes()),
                    options).mount(vertx, router);
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Http http = new Http("http://127.0.0.1:" + server.actualPort() + "/providers/transfer/");

            // a running provider answers 404 for an action it does not know; a stopped one refuses every change with 503
            for (String name : PROVIDERS) {
                assertThat(http.post(name + "/" + UUID.randomUUID() + "/cancel", "{}", null).status()).as(name).isEqualTo(404);
            }
            atShutdown.close();

            for (String name : PROVIDERS) {
                assertThat(http.post(name + "/" + UUID.randomUUID() + "/cancel", "{}", null).status()).as(name + ", stopped")
                        .isEqualTo(503);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldServeItsFailuresAndTheBytesItCopiedForTheDashboard() throws Exception {
        Path endpoints = tmp.resolve("endpoints.json");
        Files.createDirectories(tmp.resolve("data"));
        Files.write(tmp.resolve("data/scan.raw"), new byte[3 * 1024 * 1024]);
        Files.writeString(endpoints, """
                {"endpoints": [{"id": "dc", "type": "directory", "root": "data", "owner": "local:anonymous"}]}""");
        TransferProviderMain.Settings settings = TransferProviderMain.parse(new String[] {
                "--endpoints", endpoints.toString(), "--state", tmp.resolve("state").toString()});
        TransferOptions options = TransferOptions.defaults();
        int port = ProviderLauncher.serve("continuum-transfer-provider", "127.0.0.1", 0,
                TransferProviderMain.mount(settings, EndpointConfig.load(endpoints, options.chunkBytes()), options));
        Http http = new Http("http://127.0.0.1:" + port + "/providers/transfer/");
        String metrics = "http://127.0.0.1:" + port + "/q/metrics";
        double copiedBefore = ServedMetrics.scrape(metrics).value("continuum_transfer_bytes_total");

        String copy = http.run("transfer", ProviderJson.mapper().readTree("""
                {"source_endpoint_id": "dc", "destination_endpoint_id": "dc",
                 "transfer_items": [{"source_path": "/scan.raw", "destination_path": "/copy.raw"}]}"""), null)
                .json().path("action_id").asText();
        assertThat(http.await("transfer", copy, null, Duration.ofSeconds(30)).path("status").asText()).isEqualTo("SUCCEEDED");
        String missing = http.run("ls", ProviderJson.mapper().readTree("""
                {"endpoint_id": "dc", "path": "/no-such-dir"}"""), null).json().path("action_id").asText();
        JsonNode failed = http.await("ls", missing, null, Duration.ofSeconds(30));
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");

        ServedMetrics served = ServedMetrics.scrape(metrics);
        assertThat(served.value("continuum_transfer_bytes_total") - copiedBefore).as("bytes copied").isEqualTo(3 * 1024 * 1024);
        assertThat(served.value("continuum_provider_actions_total{provider=\"ls\",status=\"FAILED\",}")).isGreaterThanOrEqualTo(1);
        // deploy/grafana/continuum.json, row "Providers": every metric it queries is served by a running transfer provider
        Set<String> queried = DashboardQueries.metrics(Path.of("../.."), "Providers");
        assertThat(queried).contains("continuum_provider_actions_total", "continuum_transfer_bytes_total");
        assertThat(queried).allMatch(served::serves);
    }
}
