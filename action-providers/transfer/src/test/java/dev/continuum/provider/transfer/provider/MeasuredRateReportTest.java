package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.Trees;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each successful transfer tells the planner's link model what it measured between its two endpoints (here a
 * recorder stands in for the planner client, which {@code InferencePoolTest} exercises against the real planner).
 */
class MeasuredRateReportTest {

    private record Report(String from, String to, long bytes, Duration elapsed) {}

    @TempDir Path tmp;

    /** An edge gateway's storage and the datacenter, as directories. */
    private EndpointRegistry endpoints() {
        return new EndpointRegistry()
                .register(new Endpoint("gw-1", "directory", "local:anonymous", Set.of(), Set.of(), new LocalStorage(tmp.resolve("edge"))))
                .register(new Endpoint("datacenter", "directory", "local:anonymous", Set.of(), Set.of(), new LocalStorage(tmp.resolve("dc"))));
    }

    private String transfer(ProviderHarness harness, String file) throws Exception {
        return harness.http.run("/transfer", ProviderJson.mapper().readTree("""
                {"source_endpoint_id": "gw-1", "destination_endpoint_id": "datacenter",
                 "transfer_items": [{"source_path": "/%s", "destination_path": "/%s"}]}""".formatted(file, file)), null)
                .json().get("action_id").asText();
    }

    @Test
    void shouldReportTheBytesAndTimeOfASuccessfulTransferBetweenItsEndpoints() throws Exception {
        long size = 6L * 1024 * 1024;
        Trees.file(tmp.resolve("edge/frame.bin"), size, 3);
        EndpointRegistry endpoints = endpoints();
        List<Report> reports = new CopyOnWriteArrayList<>();
        double seconds;
        try (ProviderHarness harness = new ProviderHarness(endpoints, tmp.resolve("state"), TransferOptions.defaults(),
                (from, to, bytes, elapsed) -> reports.add(new Report(from, to, bytes, elapsed)))) {
            String id = transfer(harness, "frame.bin");

            var done = harness.http.await("/transfer", id, null, Duration.ofSeconds(60));
            assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
            seconds = done.at("/details/duration_seconds").asDouble();
        }

        assertThat(reports).hasSize(1);
        Report r = reports.getFirst();
        assertThat(r.from()).isEqualTo("gw-1");
        assertThat(r.to()).isEqualTo("datacenter");
        assertThat(r.bytes()).isEqualTo(size);
        // the time the transfer measured, as its own result states it (to the millisecond)
        assertThat(r.elapsed().toMillis() / 1000.0).isEqualTo(seconds);
    }

    @Test
    void shouldReportNothingForAFailedTransfer() throws Exception {
        EndpointRegistry endpoints = endpoints();
        List<Report> reports = new CopyOnWriteArrayList<>();
        try (ProviderHarness harness = new ProviderHarness(endpoints, tmp.resolve("state"), TransferOptions.defaults(),
                (from, to, bytes, elapsed) -> reports.add(new Report(from, to, bytes, elapsed)))) {
            String id = transfer(harness, "missing.bin");

            assertThat(harness.http.await("/transfer", id, null, Duration.ofSeconds(60)).path("status").asText())
                    .isEqualTo("FAILED");
        }

        assertThat(reports).isEmpty();
    }
}
