package dev.continuum.provider.transfer.flow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.S3Storage;
import dev.continuum.provider.transfer.gateway.GatewayStorageServer;
import dev.continuum.provider.transfer.gateway.MqttGatewayStorage;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.S3ProxyServer;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flows run by the real engine (its runner jar as a process, PostgreSQL at 127.0.0.1:5432, auth off
 * explicitly) whose transfer states reach this provider through the engine's
 * {@code continuum.providers.url-map}: a directory tree from an edge gateway's storage (over the real
 * broker) to a datacenter directory and to S3 (S3Proxy), and Globus flows 013/014/015 published
 * unchanged. The engine is built after this module in the reactor (root pom module order), so
 * {@code mvn verify} of the whole project runs this; a build of this module alone skips it, saying why.
 */
class TransferFlowThroughEngineTest {

    private static final String OWNER = "local:anonymous";

    @TempDir static Path tmp;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Process engine;
    private static String engineUrl;
    private static String database;
    private static ProviderHarness provider;
    private static GatewayStorageServer gateway;
    private static MqttGatewayStorage gatewayStorage;
    private static S3ProxyServer s3;

    @BeforeAll
    static void start() throws Exception {
        Path repo = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (repo != null && !Files.exists(repo.resolve("flow-engine"))) {
            repo = repo.getParent();
        }
        Assumptions.assumeTrue(repo != null, "skipped: repository root not found");
        Path engineJar = repo.resolve("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        Assumptions.assumeTrue(Files.exists(engineJar), "skipped: the engine is not built (mvn verify of the whole project builds it first)");
        Assumptions.assumeTrue(Brokers.answers("127.0.0.1", 5432), "skipped: no PostgreSQL at 127.0.0.1:5432");
        String db = "transfer_flow_" + UUID.randomUUID().toString().substring(0, 8);
        Process psql = new ProcessBuilder("psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", "create database " + db)
                .redirectErrorStream(true).start();
        Assumptions.assumeTrue(psql.waitFor(30, TimeUnit.SECONDS) && psql.exitValue() == 0, "skipped: cannot create a database");
        database = db;

        Brokers.Broker broker = TestBrokers.shared();
        String root = TestBrokers.freshTopics().root();
        String device = "gw-" + UUID.randomUUID().toString().substring(0, 8);
        Trees.sample(tmp.resolve("gateway/run-42"));
        gateway = new GatewayStorageServer(new GatewayStorageServer.Settings(broker.host(), broker.port(), root, device,
                tmp.resolve("gateway"), true, 2)).start();
        gatewayStorage = new MqttGatewayStorage(new MqttGatewayStorage.Settings(broker.host(), broker.port(), root, device,
                Duration.ofSeconds(30), 3));
        s3 = new S3ProxyServer(tmp.resolve("s3"), "archive");

        EndpointRegistry endpoints = new EndpointRegistry();
        endpoints.register(new Endpoint("gw-7", "gateway", OWNER, Set.of(), Set.of(), gatewayStorage));
        endpoints.register(new Endpoint("dc-scratch", "directory", OWNER, Set.of(), Set.of(), new LocalStorage(tmp.resolve("dc"))));
        endpoints.register(new Endpoint("archive", "s3", OWNER, Set.of(), Set.of(), new S3Storage(
                S3Storage.client(s3.uri(), "us-east-1", S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY), "archive", "", 5 * 1024 * 1024)));
        for (String id : new String[] {"go#ep1", "go#ep2", "ddb59aef-6d04-11e5-ba46-22000b92c6ec", "ddb59af0-6d04-11e5-ba46-22000b92c6ec"}) {
            endpoints.register(new Endpoint(id, "directory", OWNER, Set.of(), Set.of(), new LocalStorage(tmp.resolve(dir(id)))));
        }
        provider = new ProviderHarness(endpoints, tmp.resolve("provider-state"));
        String transfer = provider.http.base().replaceAll("/+$", "") + "/";

        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", engineJar.toString()).redirectErrorStream(true).redirectOutput(tmp.resolve("engine.log").toFile());
        pb.environment().put("CONTINUUM_DB_HOST", "127.0.0.1");
        pb.environment().put("CONTINUUM_DB_PORT", "5432");
        pb.environment().put("CONTINUUM_DB_NAME", db);
        pb.environment().put("CONTINUUM_DB_USER", "postgres");
        pb.environment().put("CONTINUUM_AUTH_ENABLED", "false");
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        // every Globus transfer ActionUrl form seen in ../shared/globus-flows, mapped to this provider
        pb.environment().put("CONTINUUM_PROVIDERS_URL_MAP", String.join(",",
                "https://transfer.actions.globus.org/=>" + transfer,
                "https://actions.globus.org/transfer/=>" + transfer,
                "https://actions.automate.globus.org/transfer/=>" + transfer,
                "https://actions.globus.org/=>builtin:echo"));
        engine = pb.start();
        engineUrl = "http://127.0.0.1:" + port;
        boolean up;
        try {
            up = Awaitility.await("the engine at " + engineUrl + " to answer, or to exit").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(300)).until(() -> {
                        try {
                            if (HTTP.send(HttpRequest.newBuilder(URI.create(engineUrl + "/flows")).build(),
                                    HttpResponse.BodyHandlers.discarding()).statusCode() < 500) {
                                return true;
                            }
                        } catch (IOException notYet) {
                            // not listening yet
                        }
                        return engine.isAlive() ? null : false; // null: ask again
                    }, answered -> answered != null);
        } catch (ConditionTimeoutException e) {
            up = false;
        }
        Assumptions.assumeTrue(up, "skipped: the engine did not start (see " + tmp.resolve("engine.log") + ")");
    }

    @AfterAll
    static void stop() throws Exception {
        if (engine != null) {
            engine.destroy();
            engine.waitFor(20, TimeUnit.SECONDS);
        }
        if (database != null) {
            new ProcessBuilder("psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", "drop database if exists " + database)
                    .redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        }
        if (provider != null) {
            provider.close();
        }
        if (gatewayStorage != null) {
            gatewayStorage.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static String dir(String endpointId) {
        return "ep-" + endpointId.replaceAll("[^A-Za-z0-9-]", "_");
    }

    private static JsonNode post(String path, JsonNode body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(engineUrl + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return ProviderJson.mapper().readTree(r.body());
    }

    /** Publishes the flow, starts it with the input and waits until the run is no longer ACTIVE. */
    private static JsonNode run(JsonNode definition, JsonNode schema, JsonNode input) throws Exception {
        ObjectNode flow = ProviderJson.mapper().createObjectNode();
        flow.put("title", "transfer through the engine");
        flow.set("input_schema", schema == null ? ProviderJson.mapper().readTree("{\"type\":\"object\"}") : schema);
        flow.set("definition", definition);
        String flowId = post("/flows", flow).get("id").asText();
        ObjectNode start = ProviderJson.mapper().createObjectNode();
        start.set("body", input);
        String runId = post("/flows/" + flowId + "/run", start).get("run_id").asText();
        return Awaitility.await("run " + runId + " to end").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> ProviderJson.mapper().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(engineUrl + "/runs/" + runId)).build(),
                        HttpResponse.BodyHandlers.ofString()).body()), last -> !last.path("status").asText().equals("ACTIVE"));
    }

    private static Map<String, String> files(Path root) {
        Map<String, String> out = new TreeMap<>(Trees.digest(root));
        out.values().removeIf("dir"::equals);   // S3 has no directories: compare files
        return out;
    }

    @Test
    void shouldMoveATreeFromAGatewaysStorageToADatacenterDirectoryAndToS3ThroughTheEngine() throws Exception {
        JsonNode definition = ProviderJson.mapper().readTree("""
            {"StartAt": "ToDatacenter", "States": {
              "ToDatacenter": {"Type": "Action", "ActionUrl": "https://transfer.actions.globus.org/transfer",
                "Parameters": {"source_endpoint_id.$": "$.gateway", "destination_endpoint_id": "dc-scratch",
                  "transfer_items": [{"source_path": "/~/run-42", "destination_path": "/incoming/run-42", "recursive": true}],
                  "verify_checksum": true, "label": "run 42 to the datacenter"},
                "ResultPath": "$.to_datacenter", "WaitTime": 300, "Next": "ToArchive"},
              "ToArchive": {"Type": "Action", "ActionUrl": "https://actions.globus.org/transfer/transfer",
                "Parameters": {"source_endpoint.$": "$.gateway", "destination_endpoint": "archive",
                  "DATA": [{"source_path": "/run-42", "destination_path": "/2026/run-42", "recursive": true}]},
                "ResultPath": "$.to_archive", "WaitTime": 300, "Next": "ListArrived"},
              "ListArrived": {"Type": "Action", "ActionUrl": "https://transfer.actions.globus.org/ls",
                "Parameters": {"endpoint_id": "dc-scratch", "path": "/incoming/run-42"},
                "ResultPath": "$.arrived", "End": true}}}""");

        JsonNode run = run(definition, null, ProviderJson.mapper().readTree("{\"gateway\": \"gw-7\"}"));

        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(Trees.digest(tmp.resolve("dc/incoming/run-42"))).isEqualTo(Trees.digest(tmp.resolve("gateway/run-42")));
        assertThat(files(tmp.resolve("s3/archive/2026/run-42"))).isEqualTo(files(tmp.resolve("gateway/run-42")));
        JsonNode output = run.at("/details/output");
        assertThat(output.at("/to_datacenter/details/files_transferred").asLong()).isEqualTo(4);
        // the provider runs in this JVM, which has the Vector API module (surefire argLine): BLAKE3 by default
        assertThat(output.at("/to_datacenter/details/checksum_algorithm").asText()).isEqualTo("BLAKE3");
        assertThat(output.at("/arrived/details/total").asInt()).isEqualTo(3);   // a/, big.bin, c/
    }

    @Test
    void shouldRunGlobusTransferFlowsUnchangedOnceTheirActionUrlsMapHere() throws Exception {
        Path flows = dev.continuum.provider.transfer.testing.SharedFlows.valid();
        Assumptions.assumeTrue(flows != null, "skipped: ../shared/globus-flows is not present");
        Trees.file(tmp.resolve(dir("go#ep1")).resolve("file1.txt"), 4096, 1);
        JsonNode single = run(read(flows.resolve("014-single-transfer.json")), read(flows.resolve("014-single-transfer.schema.json")),
                read(flows.resolve("014-single-transfer.input.json")));
        assertThat(single.path("status").asText()).as(single.toString()).isEqualTo("SUCCEEDED");
        assertThat(tmp.resolve(dir("go#ep2")).resolve("copied_file1.txt")).hasSameBinaryContentAs(tmp.resolve(dir("go#ep1")).resolve("file1.txt"));

        JsonNode input = read(flows.resolve("015-transfer-mv.input.json"));
        Path source = tmp.resolve(dir(input.get("source_endpoint_id").asText())).resolve("source_folder");
        Trees.sample(source);
        Map<String, String> expected = Trees.digest(source);
        JsonNode move = run(read(flows.resolve("015-transfer-mv.json")), read(flows.resolve("015-transfer-mv.schema.json")), input);
        assertThat(move.path("status").asText()).as(move.toString()).isEqualTo("SUCCEEDED");
        assertThat(Trees.digest(tmp.resolve(dir(input.get("destination_endpoint_id").asText())).resolve("destination_folder")))
                .isEqualTo(expected);
        assertThat(source).doesNotExist();   // the flow's Delete state removed the source after the transfer

        Trees.file(tmp.resolve(dir("go#ep1")).resolve("file1.txt"), 10, 2);
        JsonNode delete = run(read(flows.resolve("013-single-delete.json")), null, read(flows.resolve("013-single-delete.input.json")));
        assertThat(delete.path("status").asText()).as(delete.toString()).isEqualTo("SUCCEEDED");
        assertThat(tmp.resolve(dir("go#ep1")).resolve("file1.txt")).doesNotExist();
    }

    private static JsonNode read(Path file) throws IOException {
        return ProviderJson.mapper().readTree(file.toFile());
    }
}
