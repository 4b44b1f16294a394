package dev.continuum.engine.triggers;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.MqttBroker;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;

/**
 * The {@code file} source against a real MQTT broker (the machine's Mosquitto, else embedded Moquette): this test
 * plays the gateway's side of the wire (edge-gateway's FileWatchTest tests the gateway itself), reading the watch
 * list the engine publishes and sending file events as a gateway does.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestProfile(FileTriggerTest.EdgeBroker.class)
class FileTriggerTest {

    /** The engine connected to the edge broker, under a topic root of its own. */
    public static class EdgeBroker implements QuarkusTestProfile {
        // Quarkus loads the profile and the test in different class loaders: what both must agree on (the broker,
        // the topic root) is decided once and kept in system properties, which they share (TestBrokers does so for the broker)
        static final Brokers.Broker BROKER = TestBrokers.shared();
        static final Topics TOPICS = new Topics(once("filetriggertest.edge-root",
                () -> "continuum-files-" + UUID.randomUUID().toString().substring(0, 8)));
        /** Names the engine's persistent session on the edge broker (continuum-engine-files-<id>), to remove it after. */
        static final String INSTANCE = once("filetriggertest.instance-id",
                () -> "filetest-" + UUID.randomUUID().toString().substring(0, 8));

        private static String once(String key, java.util.function.Supplier<String> make) {
            synchronized (System.class) {
                String value = System.getProperty(key);
                if (value == null) {
                    value = make.get();
                    System.setProperty(key, value);
                }
                return value;
            }
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("continuum.edge.broker", BROKER.host() + ":" + BROKER.port(),
                    "continuum.edge.topic-root", TOPICS.root(),
                    "continuum.instance-id", INSTANCE);
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(EngineSessionRemover.class));
        }

        static MqttBroker.Address address() {
            return new MqttBroker.Address(BROKER.host(), BROKER.port(), false);
        }
    }

    /** Once the engine of this profile has stopped: removes its persistent session from the (shared) edge broker. */
    public static class EngineSessionRemover implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of();
        }

        @Override
        public void stop() {
            MqttBroker.removeSession(EdgeBroker.address(), "continuum-engine-files-" + EdgeBroker.INSTANCE);
        }
    }

    private final String gateway = "gw-" + UUID.randomUUID().toString().substring(0, 8);
    private final AtomicReference<FileWatch.Watches> watches = new AtomicReference<>();
    private MqttLink gatewaySide;

    @BeforeEach
    void connectAsTheGateway() throws Exception {
        gatewaySide = MqttLink.standalone(MqttLink.Options.persistent(EdgeBroker.BROKER.host(), EdgeBroker.BROKER.port(),
                gateway).withCleanSession(true));
        gatewaySide.subscribe(EdgeBroker.TOPICS.watches(gateway), 1, m -> {
            m.ack();
            watches.set(Wire.decode(m.payload(), FileWatch.Watches.class));
        });
        gatewaySide.start().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void disconnect() {
        gatewaySide.close();
    }

    private String fileTrigger(String flowId, String sourceExtra) {
        return Triggers.create("""
                {"title":"new images","flow_id":"%s",
                 "source":{"type":"file","gateway":"%s","path":"incoming/","glob":"*.tif","ignore":["*.part","*.tmp"]%s},
                 "input_template":{"endpoint.$":"$.endpoint","path.$":"$.path","sha256.$":"$.sha256","count.$":"$.count"}}"""
                .formatted(flowId, gateway, sourceExtra));
    }

    @Test
    void shouldTellTheGatewayWhatToWatchAndStartOneRunPerFileEvenWhenItsEventComesTwice() throws Exception {
        String triggerId = fileTrigger(Flows.publish(Triggers.KEEP_INPUT), ",\"complete\":{\"stable_seconds\":3}");

        awaitWatches(w -> w.watches().size() == 1);
        assertThat(watches.get().watches().getFirst())
                .isEqualTo(new FileWatch(triggerId, "incoming", "*.tif", List.of("*.part", "*.tmp"), 3, null, 0, 0));

        FileEvent event = FileEvent.of(gateway, triggerId,
                List.of(new FileEvent.WatchedFile("incoming/scan-1.tif", 2048, 1_700_000_000_000L, "ab12")), now());
        send(event);
        send(event); // as after a link cut before the PUBACK: the same file id again

        String runId = awaitEvents(triggerId, 2).extract().path("events.find { it.outcome == 'started' }.run_id");
        Triggers.events(triggerId).body("events.outcome", hasItem("duplicate"))
                .body("events.find { it.outcome == 'started' }.dedup_key",
                        equalTo("file:" + gateway + ":incoming/scan-1.tif:2048:1700000000000:sha256:ab12"));
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.endpoint", equalTo(gateway))
                .body("details.output.path", equalTo("incoming/scan-1.tif"))
                .body("details.output.sha256", equalTo("ab12"));
        given().when().get("/runs?filter_tags=trigger:" + triggerId).then().statusCode(200).body("runs.size()", equalTo(1));
    }

    @Test
    void shouldStartOneRunForABatchWithAllItsFiles() throws Exception {
        String triggerId = fileTrigger(Flows.publish(Triggers.KEEP_INPUT),
                ",\"complete\":{\"marker\":\".done\"},\"batch\":{\"files\":3,\"window_seconds\":10}");
        awaitWatches(w -> w.watches().size() == 1);
        assertThat(watches.get().watches().getFirst().marker()).isEqualTo(".done");
        assertThat(watches.get().watches().getFirst().batchFiles()).isEqualTo(3);

        send(FileEvent.of(gateway, triggerId, List.of(
                new FileEvent.WatchedFile("incoming/a.tif", 1, 1, "a"),
                new FileEvent.WatchedFile("incoming/b.tif", 2, 2, "b"),
                new FileEvent.WatchedFile("incoming/c.tif", 3, 3, "c")), now()));

        String runId = awaitEvents(triggerId, 1).extract().path("events[0].run_id");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.count", equalTo(3)).body("details.output.path", equalTo("incoming/a.tif"));
    }

    @Test
    void shouldTakeNoEventForAnotherGatewayOrWatchAndDropThePausedTriggersWatch() throws Exception {
        String triggerId = fileTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        awaitWatches(w -> w.watches().size() == 1);
        assertThat(watches.get().watches().getFirst().stableSeconds()).as("default completeness").isEqualTo(2);

        // the gateway's topic decides who sent it: an event naming this trigger on another device's topic is not for it
        gatewaySide.publish(EdgeBroker.TOPICS.files("gw-other"), Wire.encode(FileEvent.of("gw-other", triggerId,
                List.of(new FileEvent.WatchedFile("incoming/x.tif", 1, 1, "x")), now())), false).get(10, TimeUnit.SECONDS);
        Triggers.keepsEvents(triggerId, 0, Duration.ofMillis(1500));

        given().when().post("/triggers/" + triggerId + "/pause").then().statusCode(200);
        awaitWatches(w -> w.watches().isEmpty());
        given().when().post("/triggers/" + triggerId + "/resume").then().statusCode(200);
        awaitWatches(w -> w.watches().size() == 1);
        given().when().delete("/triggers/" + triggerId).then().statusCode(204);
        awaitWatches(w -> w.watches().isEmpty());
    }

    @Test
    void shouldStartOneRunPerCompleteFileInADatacenterDirectoryWatchedByAGatewayProcessInTheDatacenterRole(@TempDir Path dir) throws Exception {
        // a datacenter directory endpoint as the transfer provider serves it (docs/transfer.md): one directory, its
        // root the endpoint root; a real gateway process in the datacenter role watches it, named as the endpoint
        String endpoint = "dc-" + UUID.randomUUID().toString().substring(0, 8);
        Path root = Files.createDirectories(dir.resolve("datacenter"));
        Path incoming = Files.createDirectories(root.resolve("incoming"));
        String triggerId = Triggers.create("""
                {"title":"datacenter frames","flow_id":"%s",
                 "source":{"type":"file","gateway":"%s","path":"incoming/","glob":"*.tif","ignore":["*.part"],
                           "complete":{"stable_seconds":1}},
                 "input_template":{"endpoint.$":"$.endpoint","path.$":"$.path","size.$":"$.size"}}"""
                .formatted(Flows.publish(Triggers.KEEP_INPUT), endpoint));
        Process gatewayProcess = datacenterGateway(endpoint, root, dir.resolve("gateway-state"));
        try {
            Files.writeString(incoming.resolve("frame-1.tif"), "a complete frame");
            // the first event also waits for the gateway's JVM to start and connect: a minute or more on a loaded machine
            String first = awaitEvents(triggerId, 1, Duration.ofSeconds(180)).extract().path("events[0].run_id");
            assertThat(Flows.awaitStatus(first, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
            Flows.run(first).body("details.output.endpoint", equalTo(endpoint))
                    .body("details.output.path", equalTo("incoming/frame-1.tif"));

            Path frame2 = incoming.resolve("frame-2.tif");
            Files.writeString(incoming.resolve("frame-3.tif.part"), "temporary");
            try (var out = Files.newOutputStream(frame2)) {
                for (int i = 0; i < 8; i++) { // 2.4 s of writing, longer than the watch's 1 s of stability
                    out.write(("line " + i + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(300); // the period under test: a slow writer, the file not yet stable
                }
                Triggers.events(triggerId).body("events.size()", equalTo(1)); // nothing while frame-2 is written
            }
            String second = awaitEvents(triggerId, 2).extract().path("events.find { it.run_id != '" + first + "' }.run_id");
            assertThat(Flows.awaitStatus(second, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
            Flows.run(second).body("details.output.path", equalTo("incoming/frame-2.tif"))
                    .body("details.output.size", equalTo((int) Files.size(frame2)));

            // the gateway's next scans: no second event for either file, none for the .part
            Triggers.keepsEvents(triggerId, 2, Duration.ofSeconds(3));
            Triggers.events(triggerId).body("events.size()", equalTo(2)).body("events.outcome", everyItem(equalTo("started")));
            given().when().get("/runs?filter_tags=trigger:" + triggerId).then().statusCode(200).body("runs.size()", equalTo(2));
        } finally {
            gatewayProcess.destroy();
            if (!gatewayProcess.waitFor(10, TimeUnit.SECONDS)) {
                gatewayProcess.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            // the gateway's persistent session (its client id is its device id) would stay on the shared broker
            MqttBroker.removeSession(EdgeBroker.address(), endpoint);
        }
    }

    /** The gateway runtime as a datacenter runs it ({@code EdgeGatewayMain --role datacenter --data-dir}), on this JVM's class path. */
    private static Process datacenterGateway(String id, Path dataDir, Path state) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.continuum.edge.gateway.app.EdgeGatewayMain",
                "--device-id", id, "--role", "datacenter", "--data-dir", dataDir.toString(), "--state-dir", state.toString(),
                "--broker", EdgeBroker.BROKER.host() + ":" + EdgeBroker.BROKER.port(), "--topic-root", EdgeBroker.TOPICS.root(),
                "--keep-alive-seconds", "2")
                .redirectErrorStream(true).redirectOutput(Path.of("target", id + ".log").toFile()).start();
    }

    @Test
    void shouldRefuseAWatchedPathOutsideTheGatewaysDataDirectoryAndOtherBadSettingsNamingTheField() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        refused(flowId, "\"gateway\":\"gw-1\",\"path\":\"../../etc\"", "/source/path");
        refused(flowId, "\"gateway\":\"gw-1\",\"path\":\"incoming/../../x\"", "/source/path");
        refused(flowId, "\"path\":\"incoming\"", "/source/gateway");
        refused(flowId, "\"gateway\":\"gw-1\",\"complete\":{\"stable_seconds\":2,\"marker\":\".done\"}", "/source/complete");
        refused(flowId, "\"gateway\":\"gw-1\",\"complete\":{\"marker\":\"done/../x\"}", "/source/complete/marker");
        refused(flowId, "\"gateway\":\"gw-1\",\"glob\":\"*.{tif\"", "/source/glob");
        refused(flowId, "\"gateway\":\"gw-1\",\"ignore\":[\"*.part\",7]", "/source/ignore/1");
        refused(flowId, "\"gateway\":\"gw-1\",\"batch\":{\"files\":1}", "/source/batch/files");
    }

    private static void refused(String flowId, String source, String field) {
        given().contentType(ContentType.JSON).body("""
                        {"title":"t","flow_id":"%s","source":{"type":"file",%s}}""".formatted(flowId, source))
                .when().post("/triggers").then().log().ifValidationFails().statusCode(400)
                .body("errors.pointer", hasItem(field));
    }

    private void send(FileEvent event) throws Exception {
        gatewaySide.publish(EdgeBroker.TOPICS.files(gateway), Wire.encode(event), false).get(10, TimeUnit.SECONDS);
    }

    private void awaitWatches(java.util.function.Predicate<FileWatch.Watches> condition) {
        await("the gateway's watch list as expected").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(watches::get, current -> current != null && condition.test(current));
    }

    private static io.restassured.response.ValidatableResponse awaitEvents(String triggerId, int count) {
        return awaitEvents(triggerId, count, Duration.ofSeconds(20));
    }

    private static io.restassured.response.ValidatableResponse awaitEvents(String triggerId, int count, Duration within) {
        await("trigger " + triggerId + " has " + count + " events").atMost(within).pollInterval(Duration.ofMillis(100))
                .until(() -> Triggers.events(triggerId).extract().<Integer>path("events.size()"), n -> n >= count);
        return Triggers.events(triggerId);
    }

    private static long now() {
        return Instant.now().toEpochMilli();
    }
}
