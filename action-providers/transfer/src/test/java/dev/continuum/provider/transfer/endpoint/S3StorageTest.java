package dev.continuum.provider.transfer.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.S3ProxyServer;
import dev.continuum.provider.transfer.testing.Trees;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** Transfers to and from a real S3-compatible server started by the test (S3Proxy, file-system backend). */
class S3StorageTest {

    private static final String ALICE = "urn:continuum:user:alice";

    @TempDir Path tmp;
    private S3ProxyServer s3;
    private ProviderHarness harness;

    @BeforeEach
    void start() throws Exception {
        s3 = new S3ProxyServer(tmp.resolve("s3-data"), "archive");
        S3Client client = S3Storage.client(s3.uri(), "us-east-1", S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY);
        EndpointRegistry endpoints = new EndpointRegistry()
                .register(new Endpoint("gateway-1", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(tmp.resolve("gateway"))))
                .register(new Endpoint("dc", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(tmp.resolve("dc"))))
                .register(new Endpoint("archive", "s3", ALICE, Set.of(), Set.of(), new S3Storage(client, "archive", "lab", 5 * 1024 * 1024)));
        harness = new ProviderHarness(endpoints, tmp.resolve("state"));
        Trees.sample(tmp.resolve("gateway"));
    }

    @AfterEach
    void stop() throws Exception {
        harness.close();
        s3.close();
    }

    private JsonNode run(String provider, String body) throws Exception {
        Http.Answer a = harness.http.run(provider, ProviderJson.mapper().readTree(body), ALICE);
        assertThat(a.status()).as("%s", a.json()).isIn(200, 202);
        return harness.http.await(provider, a.json().get("action_id").asText(), ALICE, Duration.ofSeconds(90));
    }

    @Test
    void shouldMoveATreeFromGatewayToS3AndBackUnchanged() throws Exception {
        JsonNode up = run("/transfer", """
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "archive",
                 "transfer_items": [{"source_path": "/", "destination_path": "/run-1", "recursive": true}]}""");
        assertThat(up.get("status").asText()).as("%s", up).isEqualTo("SUCCEEDED");
        assertThat(up.at("/details/files_transferred").asLong()).isEqualTo(4);

        JsonNode ls = run("/ls", "{\"endpoint_id\": \"archive\", \"path\": \"/run-1\"}");
        assertThat(ls.at("/details/DATA").findValuesAsText("name")).containsExactly("a", "big.bin");
        assertThat(ls.at("/details/DATA/1/size").asLong()).isEqualTo(21L * 1024 * 1024 + 123);

        JsonNode down = run("/transfer", """
                {"source_endpoint": "archive", "destination_endpoint": "dc",
                 "DATA": [{"source_path": "/run-1", "destination_path": "/back", "recursive": true}]}""");
        assertThat(down.get("status").asText()).as("%s", down).isEqualTo("SUCCEEDED");
        // S3 has no empty directories: everything else must be identical
        var expected = Trees.digest(tmp.resolve("gateway"));
        expected.remove("c");
        expected.remove("c/empty-dir");
        assertThat(Trees.digest(tmp.resolve("dc/back"))).isEqualTo(expected);
    }

    @Test
    void shouldSkipObjectsAlreadyInTheBucketAtSyncLevelChecksum() throws Exception {
        String body = """
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "archive", "sync_level": "checksum",
                 "transfer_items": [{"source_path": "/a", "destination_path": "/a"}]}""";
        run("/transfer", body);
        JsonNode again = run("/transfer", body);
        assertThat(again.at("/details/files_skipped").asLong()).isEqualTo(3);
    }

    @Test
    void shouldDeleteObjectsRecursively() throws Exception {
        run("/transfer", """
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "archive",
                 "transfer_items": [{"source_path": "/a", "destination_path": "/a"}]}""");
        JsonNode deleted = run("/delete", "{\"endpoint_id\": \"archive\", \"recursive\": true, \"items\": [\"/a\"]}");
        assertThat(deleted.get("status").asText()).isEqualTo("SUCCEEDED");
        JsonNode ls = run("/ls", "{\"endpoint_id\": \"archive\", \"path\": \"/\"}");
        assertThat(ls.at("/details/total").asInt()).isZero();   // nothing left under the prefix
    }
}
