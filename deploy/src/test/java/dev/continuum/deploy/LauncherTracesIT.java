package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.telemetry.testing.OtlpCollector;
import dev.continuum.telemetry.testing.OtlpCollector.Received;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped launchers as processes, started as {@code up} starts them ({@link ChildProcesses}, with the
 * {@code OTEL_*} settings {@link ChildTraces} derives from the engine's collector): the transfer provider's runner jar
 * and a device's storage half ({@code GatewayStorageMain}, from the same jar) export their spans over OTLP/HTTP to a
 * collector this test plays ({@link OtlpCollector}), in the trace of the caller's {@code traceparent} — the provider's
 * {@code POST /run} the child of the caller's span, the device's storage spans children of the provider's.
 */
class LauncherTracesIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String CALLER = "00f067aa0ba902b7";

    @TempDir
    Path dir;

    @Test
    void shouldExportTheSpansOfTheTransferProviderAndADevicesStorageInTheCallersTrace() throws Exception {
        Path jar = TransferUp.jar(REPO).orElseThrow(() -> new AssertionError(
                "the transfer provider's runner jar is built (mvn package) in action-providers/transfer/target"));
        Brokers.Broker broker = TestBrokers.shared();
        String topicRoot = TestBrokers.freshTopics().root();
        String device = "gw-" + UUID.randomUUID().toString().substring(0, 8);
        Path deviceData = Files.createDirectories(dir.resolve("device/frames"));
        Files.writeString(deviceData.resolve("f1.json"), "{\"frame\": 1}");
        Files.writeString(dir.resolve("model.bin"), "weights ".repeat(1000));
        try (OtlpCollector collector = OtlpCollector.start(); ChildProcesses children = new ChildProcesses(dir)) {
            // what `up` is given to trace the engine over HTTP; ChildTraces turns it into each child's OTEL_* settings
            Map<String, String> up = Map.of("QUARKUS_OTEL_SDK_DISABLED", "false",
                    "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                    "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", collector.url());
            int port = ChildProcesses.freePort();
            Process provider = children.launch("transfer-provider", List.of("--add-modules", "jdk.incubator.vector"), jar,
                    List.of("--endpoints", endpoints(device, broker, topicRoot).toString(), "--state", dir.resolve("state").toString(),
                            "--port", String.valueOf(port)), traced("continuum-transfer-provider", up, Map.of()));
            Process storage = children.launchMain(device + "-storage", jar, TransferUp.STORAGE_MAIN, List.of("--device-id", device,
                    "--root", dir.resolve("device").toString(), "--broker", broker.host() + ":" + broker.port(),
                    "--topic-root", topicRoot), traced("continuum-" + device + "-storage", up,
                    ChildTraces.instanceOf(TransferUp.STORAGE_SERVICE, device, Map.of())));
            children.await(provider, "transfer-provider", "the transfer provider to start", Duration.ofSeconds(90), () ->
                    get(URI.create("http://127.0.0.1:" + port + "/health")).statusCode() == 200);
            children.await(storage, device + "-storage", "the device's storage to connect", Duration.ofSeconds(90),
                    () -> Files.readString(children.log(device + "-storage")).contains("serving"));
            String base = "http://127.0.0.1:" + port + "/providers/transfer";

            String lsTrace = trace();
            JsonNode ls = run(base + "/ls", lsTrace, JSON.createObjectNode().put("endpoint_id", device).put("path", "/frames"));
            assertThat(ls.path("status").asText()).as(ls.toString()).isEqualTo("SUCCEEDED");
            String copyTrace = trace();
            ObjectNode copy = JSON.createObjectNode().put("source_endpoint_id", "datacenter").put("destination_endpoint_id", device);
            copy.putArray("transfer_items").addObject().put("source_path", "/model.bin").put("destination_path", "/models/model.bin");
            JsonNode transfer = run(base + "/transfer", copyTrace, copy);
            awaitSucceeded(base + "/transfer/" + transfer.path("action_id").asText() + "/status");

            assertThat(collector.await(Duration.ofSeconds(30), spans -> spans.stream().anyMatch(s -> s.span().getName().equals("storage list"))
                    && spans.stream().anyMatch(s -> s.span().getName().equals("storage commit"))))
                    .as("the storage half's spans reached the collector; it has %s", collector.describe()).isTrue();

            Received lsRun = inTrace(collector, lsTrace, "continuum-transfer-provider", "POST /run");
            assertThat(lsRun.parentSpanId()).as("the provider's span is the child of the caller's").isEqualTo(CALLER);
            Received list = inTrace(collector, lsTrace, TransferUp.STORAGE_SERVICE, "storage list");
            assertThat(list.parentSpanId()).as("the device's span is the child of the provider's").isEqualTo(lsRun.spanId());
            assertThat(list.resource()).containsEntry("service.instance.id", device);
            assertThat(list.attribute("continuum.storage.path")).isEqualTo("frames");

            Received copyRun = inTrace(collector, copyTrace, "continuum-transfer-provider", "POST /run");
            List<Received> writes = collector.spans().stream().filter(s -> s.traceId().equals(copyTrace)
                    && s.service().equals(TransferUp.STORAGE_SERVICE)).toList();
            assertThat(writes).extracting(s -> s.span().getName()).contains("storage open", "storage write", "storage commit");
            assertThat(writes).as("the transfer's requests, from its own thread and workers, in the caller's trace")
                    .allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(copyRun.spanId()));
            assertThat(Files.readString(dir.resolve("device/models/model.bin"))).isEqualTo("weights ".repeat(1000));
        }
    }

    /** The environment {@code up} gives a child named {@code name}: ChildTraces' settings, then {@code more}. */
    private static Map<String, String> traced(String service, Map<String, String> up, Map<String, String> more) {
        Map<String, String> env = new HashMap<>(ChildTraces.environment(service, up));
        env.put("OTEL_BSP_SCHEDULE_DELAY", "100"); // quick batches: the test waits for them
        env.putAll(more);
        return env;
    }

    /** A directory endpoint and the device's storage, both open to anyone (no sign-in here). */
    private Path endpoints(String device, Brokers.Broker broker, String topicRoot) throws Exception {
        ObjectNode doc = JSON.createObjectNode();
        var list = doc.putArray("endpoints");
        list.addObject().put("id", "datacenter").put("type", "directory").put("root", dir.toString())
                .put("owner", "urn:continuum:user:test").putArray("readers").add("public");
        ObjectNode gateway = list.addObject().put("id", device).put("type", "gateway").put("device_id", device)
                .put("broker", broker.host() + ":" + broker.port()).put("topic_root", topicRoot).put("owner", "urn:continuum:user:test");
        gateway.putArray("readers").add("public");
        gateway.putArray("writers").add("public");
        Path file = dir.resolve("endpoints.json");
        Files.writeString(file, JSON.writeValueAsString(doc));
        return file;
    }

    private static String trace() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** POST ACTION/run inside the caller's span {@value #CALLER} of {@code traceId}. */
    private static JsonNode run(String action, String traceId, JsonNode body) throws Exception {
        ObjectNode request = JSON.createObjectNode().put("request_id", UUID.randomUUID().toString());
        request.set("body", body);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(action + "/run"))
                .header("Content-Type", "application/json").header("traceparent", "00-" + traceId + "-" + CALLER + "-01")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isBetween(200, 202);
        return JSON.readTree(response.body());
    }

    private static void awaitSucceeded(String status) throws Exception {
        JsonNode last = Awaitility.await("the action at " + status + " leaves ACTIVE").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> JSON.readTree(get(URI.create(status)).body()), node -> !node.path("status").asText().equals("ACTIVE"));
        assertThat(last.path("status").asText()).as(last.toString()).isEqualTo("SUCCEEDED");
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Received inTrace(OtlpCollector collector, String traceId, String service, String name) {
        return collector.spans().stream().filter(s -> s.traceId().equals(traceId) && s.service().equals(service)
                && s.span().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + service + " span " + name + " in trace " + traceId + ": " + collector.describe()));
    }
}
