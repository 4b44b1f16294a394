package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transfer into a destination whose file system fills up (issue 18 C): a real 2 MiB tmpfs mounted for the test
 * (needs root; CI runs as root, elsewhere the test is skipped and says why). The transfer FAILS with
 * {@code DestinationFull} naming the file, instead of retrying a full disk or reporting a generic error.
 */
class FullDestinationTest {

    private static final String ALICE = "urn:continuum:user:alice";

    @TempDir Path tmp;
    private Path full;
    private boolean mounted;
    private ProviderHarness harness;

    @BeforeEach
    void mountSmallFileSystem() throws Exception {
        // outside @TempDir: a mount point that cannot be detached must not fail the test's clean-up
        full = Files.createTempDirectory("continuum-full-destination-");
        mounted = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", full.toString()) == 0;
        assumeTrue(mounted, "mounting a 2 MiB tmpfs needs root (mount -t tmpfs); skipped here");
        Trees.file(tmp.resolve("instrument/scan.raw"), 6L * 1024 * 1024, 18);
        EndpointRegistry endpoints = new EndpointRegistry()
                .register(new Endpoint("instrument", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(tmp.resolve("instrument"))))
                .register(new Endpoint("small-disk", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(full)));
        harness = new ProviderHarness(endpoints, tmp.resolve("state"));
    }

    @AfterEach
    void unmount() throws Exception {
        if (harness != null) {
            harness.close();
        }
        if (mounted) {
            unmountFully();
        }
        try {
            Files.deleteIfExists(full);
        } catch (IOException stillMounted) {
            System.err.println("FullDestinationTest: " + full + " not removed: " + stillMounted);
        }
    }

    /**
     * A chunk verified through a memory map keeps the partial file mapped until the buffer is collected, so a
     * plain umount can answer "target is busy"; a collection frees it, and a lazy umount detaches what is left so
     * the temporary directory can be removed.
     */
    private void unmountFully() throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            if (run("umount", full.toString()) == 0) {
                return;
            }
            System.gc();
            Thread.sleep(200); // a cleanup's retries, a collection apart: no test condition waits here
        }
        if (run("umount", "-l", full.toString()) != 0) {
            System.err.println("FullDestinationTest: could not unmount " + full + "; left mounted (2 MiB tmpfs)");
        }
    }

    @Test
    void shouldFailWithDestinationFullWhenTheDestinationFileSystemFillsUp() throws Exception {
        Http http = harness.http;
        Http.Answer started = http.run("/transfer", ProviderJson.mapper().readTree("""
                {"source_endpoint_id": "instrument", "destination_endpoint_id": "small-disk",
                 "transfer_items": [{"source_path": "/scan.raw", "destination_path": "/scan.raw"}]}"""), ALICE);
        assertThat(started.status()).as("%s", started.json()).isEqualTo(202);
        JsonNode done = http.await("/transfer", started.json().get("action_id").asText(), ALICE, Duration.ofSeconds(60));

        // one line the campaign script (bench/scripts/fault-campaign.sh) reads into docs/reliability.md
        System.out.printf("CAMPAIGN transfer-full bytes=%d status=%s code=%s%n", 6L * 1024 * 1024,
                done.get("status").asText(), done.at("/details/code").asText());
        assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("FAILED");
        assertThat(done.at("/details/code").asText()).as(done.toString()).isEqualTo("DestinationFull");
        assertThat(done.at("/details/description").asText()).contains("scan.raw");
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }
}
