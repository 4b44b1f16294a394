package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferCancelTest {

    @TempDir Path tmp;

    @Test
    void shouldStopACancelledTransferAndLeaveNoPartialFiles() throws Exception {
        Trees.file(tmp.resolve("src/big.bin"), 40L * 1024 * 1024, 1);
        EndpointRegistry endpoints = new EndpointRegistry()
                .register(new Endpoint("src", "directory", "local:anonymous", Set.of(), Set.of(), new LocalStorage(tmp.resolve("src"))))
                .register(new Endpoint("dst", "directory", "local:anonymous", Set.of(), Set.of(), new LocalStorage(tmp.resolve("dst"))));
        try (ProviderHarness harness = new ProviderHarness(endpoints, tmp.resolve("state"),
                TransferOptions.defaults().withMaxBytesPerSecond(4L * 1024 * 1024))) {
            Http http = harness.http;
            String id = http.run("/transfer", ProviderJson.mapper().readTree("""
                    {"source_endpoint_id": "src", "destination_endpoint_id": "dst",
                     "transfer_items": [{"source_path": "/big.bin", "destination_path": "/big.bin"}]}"""), null)
                    .json().get("action_id").asText();
            await("transfer " + id + " to move its first bytes").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> http.get("/transfer/" + id + "/status", null).json().at("/details/bytes_transferred").asLong() > 0);

            Http.Answer cancelled = http.post("/transfer/" + id + "/cancel", "{}", null);

            assertThat(cancelled.status()).isEqualTo(200);
            assertThat(cancelled.json().get("display_status").asText()).isEqualTo("Cancelled");
            JsonNode after = http.await("/transfer", id, null, Duration.ofSeconds(5));
            assertThat(after.get("status").asText()).isEqualTo("FAILED");
            await("the cancelled transfer's partial files to be removed from " + tmp.resolve("dst"))
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> partials(tmp.resolve("dst")) == 0);
            assertThat(tmp.resolve("dst/big.bin")).doesNotExist();
        }
    }

    private static long partials(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> p.getFileName().toString().endsWith(".continuum-part")).count();
        }
    }
}
