package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.testing.FaultyStorage;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransferProviderApiTest {

    private static final String ALICE = "urn:continuum:user:alice";
    private static final String BOB = "urn:continuum:user:bob";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir Path tmp;
    private ProviderHarness harness;
    private Http http;
    private FaultyStorage corruptingDestination;

    @BeforeEach
    void start() throws Exception {
        Trees.sample(tmp.resolve("gateway"));
        Trees.file(tmp.resolve("outside/secret.txt"), 10, 9);
        corruptingDestination = new FaultyStorage(new LocalStorage(tmp.resolve("flaky")), 1, Integer.MAX_VALUE);
        EndpointRegistry endpoints = new EndpointRegistry()
                .register(new Endpoint("gateway-1", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(tmp.resolve("gateway"))))
                .register(new Endpoint("dc", "directory", ALICE, Set.of(), Set.of(), new LocalStorage(tmp.resolve("dc"))))
                .register(new Endpoint("flaky", "directory", ALICE, Set.of(), Set.of(), corruptingDestination))
                .register(new Endpoint("shared", "directory", ALICE, Set.of(BOB), Set.of(), new LocalStorage(tmp.resolve("shared"))));
        harness = new ProviderHarness(endpoints, tmp.resolve("state"));
        http = harness.http;
    }

    @AfterEach
    void stop() throws Exception {
        harness.close();
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) ProviderJson.mapper().readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode transfer(String body, String caller) {
        Http.Answer started = http.run("/transfer", json(body), caller);
        assertThat(started.status()).as("%s", started.json()).isEqualTo(202);
        return http.await("/transfer", started.json().get("action_id").asText(), caller, WAIT);
    }

    @Test
    void shouldCopyATreeGivenSourceEndpointIdAndTransferItems() {
        JsonNode done = transfer("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc", "label": "run 7",
                 "transfer_items": [{"source_path": "/~/", "destination_path": "/~/run-7", "recursive": true}]}""", ALICE);

        assertThat(done.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(Trees.digest(tmp.resolve("dc/run-7"))).isEqualTo(Trees.digest(tmp.resolve("gateway")));
        JsonNode d = done.get("details");
        assertThat(d.get("files_transferred").asLong()).isEqualTo(4);
        assertThat(d.get("bytes_transferred").asLong()).isEqualTo(d.get("bytes_total").asLong()).isEqualTo(27L * 1024 * 1024 + 1123);
        assertThat(d.get("checksum_algorithm").asText()).as("the default where the Vector API is present").isEqualTo("BLAKE3");
        assertThat(d.get("label").asText()).isEqualTo("run 7");
        assertThat(d.has("rate_bytes_per_second")).isTrue();
    }

    @Test
    void shouldCopyGivenSourceEndpointAndData() {
        JsonNode done = transfer("""
                {"source_endpoint": "gateway-1", "destination_endpoint": "dc",
                 "DATA": [{"source_path": "/a/one.txt", "destination_path": "/x/one.txt"},
                          {"source_path": "/a/b", "destination_path": "/x/b"}]}""", ALICE);

        assertThat(done.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(Trees.digest(tmp.resolve("dc/x/b"))).isEqualTo(Trees.digest(tmp.resolve("gateway/a/b")));
        assertThat(tmp.resolve("dc/x/one.txt")).hasSameBinaryContentAs(tmp.resolve("gateway/a/one.txt"));
    }

    @Test
    void shouldSkipUnchangedFilesAtSyncLevelMtime() {
        String body = """
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc", "sync_level": 2,
                 "transfer_items": [{"source_path": "/", "destination_path": "/copy"}]}""";
        transfer(body, ALICE);
        JsonNode again = transfer(body, ALICE);
        assertThat(again.at("/details/files_skipped").asLong()).isEqualTo(4);
        assertThat(again.at("/details/files_transferred").asLong()).isZero();
    }

    @Test
    void shouldDetectRetryAndReportAnInjectedChecksumMismatch() {
        Http.Answer started = http.run("/transfer", json("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "flaky",
                 "transfer_items": [{"source_path": "/big.bin", "destination_path": "/big.bin"}]}"""), ALICE);
        String id = started.json().get("action_id").asText();
        JsonNode done = http.await("/transfer", id, ALICE, WAIT);

        assertThat(done.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/checksum_mismatches").asLong()).isEqualTo(1);
        assertThat(done.at("/details/retries").asLong()).isEqualTo(1);
        assertThat(tmp.resolve("flaky/big.bin")).hasSameBinaryContentAs(tmp.resolve("gateway/big.bin"));
        JsonNode log = http.get("/transfer/" + id + "/log", ALICE).json().get("entries");
        assertThat(StreamSupport.stream(log.spliterator(), false).map(e -> e.get("code").asText()))
                .contains("TransferAccepted", "TransferPlanned", "ChecksumMismatch", "TransferSucceeded");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../outside/secret.txt", "/~/../../outside", "%2e%2e/outside", "a\\u0000b",
            "\\uff0e\\uff0e/outside", "/a/\\u202e/x", "..%2foutside"})
    void shouldRefuseTraversalAttemptsWith400NamingTheField(String path) throws IOException {
        for (String field : new String[] {"source_path", "destination_path"}) {
            ObjectNode item = json("{\"source_path\": \"/a/one.txt\", \"destination_path\": \"/y\"}");
            item.set(field, json("{\"p\": \"" + path + "\"}").get("p"));
            ObjectNode body = json("{\"source_endpoint_id\": \"gateway-1\", \"destination_endpoint_id\": \"dc\"}");
            body.putArray("transfer_items").add(item);
            Http.Answer refused = http.run("/transfer", body, ALICE);

            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.json().at("/errors/0/pointer").asText()).isEqualTo("/body/transfer_items/0/" + field);
            assertThat(refused.json().get("detail").asText()).contains("refused");
        }
        try (var everything = Files.walk(tmp.resolve("outside"))) {
            assertThat(everything.count()).isEqualTo(2);   // the directory and its one file, untouched
        }
    }

    @Test
    void shouldRefuseASymlinkThatLeadsOutOfTheEndpoint() throws IOException {
        Files.createSymbolicLink(tmp.resolve("gateway/escape"), tmp.resolve("outside"));
        Http.Answer refused = http.run("/ls", json("{\"endpoint_id\": \"gateway-1\", \"path\": \"/escape\"}"), ALICE);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("detail").asText()).contains("symlink");
        JsonNode copied = transfer("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc",
                 "transfer_items": [{"source_path": "/escape/secret.txt", "destination_path": "/stolen"}]}""".replace("\n", ""), ALICE);
        assertThat(copied.get("status").asText()).isEqualTo("FAILED");
        assertThat(tmp.resolve("dc/stolen")).doesNotExist();
    }

    @Test
    void shouldRefuseAUserWithoutAnAclOnEitherEndpoint() {
        JsonNode denied = transfer("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc",
                 "transfer_items": [{"source_path": "/a", "destination_path": "/a"}]}""", BOB);
        assertThat(denied.get("status").asText()).isEqualTo("FAILED");
        assertThat(denied.at("/details/code").asText()).isEqualTo("PermissionDenied");
        assertThat(denied.at("/details/description").asText()).contains(BOB).contains("read endpoint 'gateway-1'");
        assertThat(tmp.resolve("dc/a")).doesNotExist();

        Http.Answer bobReads = http.run("/ls", json("{\"endpoint_id\": \"shared\", \"path\": \"/\"}"), BOB);
        assertThat(bobReads.json().get("status").asText()).isEqualTo("SUCCEEDED");
        Http.Answer bobWrites = http.run("/mkdir", json("{\"endpoint_id\": \"shared\", \"path\": \"/new\"}"), BOB);
        assertThat(bobWrites.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(bobWrites.json().at("/details/code").asText()).isEqualTo("PermissionDenied");
        assertThat(tmp.resolve("shared/new")).doesNotExist();
    }

    @Test
    void shouldListMakeDirectoriesAndDelete() {
        Http.Answer made = http.run("/mkdir", json("{\"endpoint_id\": \"dc\", \"path\": \"/~/incoming/2030\"}"), ALICE);
        assertThat(made.json().get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(tmp.resolve("dc/incoming/2030")).isDirectory();

        JsonNode ls = http.run("/ls", json("{\"endpoint_id\": \"gateway-1\", \"path\": \"/~/\"}"), ALICE).json();
        assertThat(ls.at("/details/total").asInt()).isEqualTo(3);
        assertThat(ls.at("/details/DATA/0/name").asText()).isEqualTo("a");
        assertThat(ls.at("/details/DATA/0/type").asText()).isEqualTo("dir");
        assertThat(ls.at("/details/DATA/1/name").asText()).isEqualTo("big.bin");
        assertThat(ls.at("/details/DATA/1/size").asLong()).isEqualTo(21L * 1024 * 1024 + 123);

        JsonNode notRecursive = http.run("/delete", json("{\"endpoint_id\": \"gateway-1\", \"items\": [\"/a\"]}"), ALICE).json();
        assertThat(notRecursive.get("status").asText()).isEqualTo("FAILED");
        assertThat(tmp.resolve("gateway/a")).isDirectory();
        JsonNode deleted = http.run("/delete", json("""
                {"endpoint_id": "gateway-1", "recursive": true, "DATA": [{"path": "/a"}, {"path": "/big.bin"}]}"""), ALICE).json();
        assertThat(deleted.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(tmp.resolve("gateway/a")).doesNotExist();
        assertThat(tmp.resolve("gateway/big.bin")).doesNotExist();

        Http.Answer root = http.run("/delete", json("{\"endpoint_id\": \"gateway-1\", \"recursive\": true, \"items\": [\"/~/\"]}"), ALICE);
        assertThat(root.status()).isEqualTo(400);
        assertThat(tmp.resolve("gateway")).isDirectory();
    }

    @Test
    void shouldFailAMissingSourceNamingIt() {
        JsonNode failed = transfer("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc",
                 "transfer_items": [{"source_path": "/nope", "destination_path": "/x"}]}""", ALICE);
        assertThat(failed.get("status").asText()).isEqualTo("FAILED");
        assertThat(failed.at("/details/code").asText()).isEqualTo("SourceNotFound");
        assertThat(failed.at("/details/description").asText()).contains("/nope");
    }

    @Test
    void shouldHashWithTheRequestedAlgorithmAndSayWhichInTheStatus() {
        JsonNode done = transfer("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc", "checksum_algorithm": "sha256",
                 "transfer_items": [{"source_path": "/a", "destination_path": "/sha"}]}""", ALICE);

        assertThat(done.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/checksum_algorithm").asText()).isEqualTo("SHA-256");
        assertThat(Trees.digest(tmp.resolve("dc/sha"))).isEqualTo(Trees.digest(tmp.resolve("gateway/a")));
    }

    @Test
    void shouldRefuseAnUnknownChecksumAlgorithmNamingTheField() {
        Http.Answer bad = http.run("/transfer", json("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc", "checksum_algorithm": "md5",
                 "transfer_items": [{"source_path": "/a", "destination_path": "/md5"}]}"""), ALICE);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().at("/errors/0/pointer").asText()).isEqualTo("/body/checksum_algorithm");
        assertThat(bad.json().get("detail").asText()).contains("sha256 or blake3");
    }

    @Test
    void shouldNameTheMissingFieldOfABadBody() {
        Http.Answer bad = http.run("/transfer", json("{\"source_endpoint_id\": \"gateway-1\", \"destination_endpoint_id\": \"dc\"}"), ALICE);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().at("/errors/0/pointer").asText()).isEqualTo("/body/transfer_items");
    }
}
