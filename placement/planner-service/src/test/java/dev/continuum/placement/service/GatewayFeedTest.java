package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.service.support.GatewaysProfile;
import dev.continuum.telemetry.testing.DashboardQueries;
import dev.continuum.placement.service.support.KeycloakResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real gateways (the edge runtime with the real OCR model) heartbeat through the test broker; the planner places on
 * them from what they report, and when the chosen one goes away the job is placed again on the other and the
 * decision log says so.
 */
@QuarkusTest
@TestProfile(GatewaysProfile.class)
class GatewayFeedTest {

    private static final Vertx VERTX = Vertx.vertx();
    private static final Map<String, EdgeGateway> GATEWAYS = new HashMap<>();
    private static final List<AutoCloseable> CLOSE = new java.util.ArrayList<>();
    private static String token;
    /** The gateways' GPU "readings" (this machine has no GPU): utilisation 10..90 %, memory 1..4 GiB, changing per heartbeat. */
    private static final java.util.concurrent.atomic.AtomicInteger READINGS = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeAll
    static void startGateways() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        DeviceCredentials credentials = DeviceCredentials.fromSecret(GatewaysProfile.SECRET, Clock.systemUTC());
        Path model = TestModels.ocrClassifier();
        Path state = Files.createTempDirectory("planner-gateways");
        // the platform's cloud side (as the inference provider runs it) registers the gateways
        CLOSE.add(new CloudSide(VERTX, broker.host(), broker.port(), new Topics(GatewaysProfile.TOPIC_ROOT), credentials, null));
        for (String id : List.of(TestBrokers.freshId("gw-a"), TestBrokers.freshId("gw-b"))) {
            GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), state.resolve(id),
                            credentials.bootstrapToken(id))
                    .withTopics(new Topics(GatewaysProfile.TOPIC_ROOT)).withHeartbeat(Duration.ofMillis(300), 5)
                    .withGpus(() -> List.of(new GpuInfo(0, "NVIDIA A2", 15360, 1024 + READINGS.get() % 4 * 1024,
                            READINGS.incrementAndGet() % 10 * 10)))
                    .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false));
            EdgeGateway gw = new EdgeGateway(cfg, VERTX, Clock.systemUTC());
            gw.models().deploy("ocr-cls", "1", gw.models().install(model));
            gw.start().get(20, TimeUnit.SECONDS);
            GATEWAYS.put(id, gw);
        }
        token = KeycloakResource.token("scientist");
    }

    @AfterAll
    static void stopGateways() throws Exception {
        GATEWAYS.values().forEach(EdgeGateway::close);
        for (AutoCloseable c : CLOSE) {
            c.close();
        }
        VERTX.close();
    }

    private static JsonPath place(String id) {
        return given().auth().oauth2(token).contentType("application/json")
                .body("""
                        {"id": "%s", "kind": "inference", "model": "ocr-cls@1"}""".formatted(id))
                .post("/placements").then().extract().jsonPath();
    }

    private static JsonPath place(String id, String owner) {
        return given().auth().oauth2(token).contentType("application/json")
                .body("""
                        {"id": "%s", "kind": "inference", "model": "ocr-cls@1", "owner": "%s"}""".formatted(id, owner))
                .post("/placements").then().extract().jsonPath();
    }

    /**
     * The provider that asked (named {@code owner} in the request) is told over the broker, on its own topic and
     * persistent session: the push sent while it was disconnected reaches it when it is back.
     */
    @Test
    void shouldPlaceOnAGatewayFromItsHeartbeatsAndAgainElsewhereWhenItGoesAwayAndPushItToTheProviderThatAsked()
            throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = new Topics(GatewaysProfile.TOPIC_ROOT);
        String owner = TestBrokers.freshId("inference");
        List<JsonNode> pushed = new java.util.concurrent.CopyOnWriteArrayList<>();
        MqttLink provider = providerLink(broker, owner, topics, pushed); // its session subscribed, then away
        provider.close();

        // the first request may come before both gateways have reported in: ask until a gateway is chosen
        String[] chosen = new String[1];
        int[] n = {0};
        assertThat(Await.until(Duration.ofSeconds(30), () -> {
            JsonPath p = place("feed-" + (++n[0]), owner);
            chosen[0] = p.getString("site");
            return GATEWAYS.containsKey(chosen[0]) && p.getString("decisions[0].decision.reasons[0]").contains("of 2 sites");
        })).as("a gateway chosen from its heartbeats").isTrue();
        String job = "feed-" + n[0];

        GATEWAYS.remove(chosen[0]).close(); // a clean stop publishes the retained "offline"

        String other = GATEWAYS.keySet().iterator().next();
        assertThat(Await.until(Duration.ofSeconds(20), () -> given().auth().oauth2(token).get("/placements/" + job)
                .then().extract().jsonPath().getList("decisions").size() == 2)).as("a second decision").isTrue();
        JsonPath log = given().auth().oauth2(token).get("/placements/" + job).then().statusCode(200).extract().jsonPath();
        assertThat(log.getString("site")).isEqualTo(other);
        assertThat(log.getString("decisions[1].cause")).isEqualTo("inventory");
        assertThat(log.getString("decisions[1].decision.reasons[0]"))
                .isEqualTo("placed again: " + chosen[0] + " went offline before the job finished");
        assertThat(log.getList("decisions[1].decision.reasons", String.class)).contains(chosen[0] + ": offline");

        MqttLink back = providerLink(broker, owner, topics, pushed);
        CLOSE.add(back);
        assertThat(Await.until(Duration.ofSeconds(20), () -> !pushed.isEmpty())).as("the push, queued while away").isTrue();
        JsonNode push = pushed.getFirst();
        assertThat(push.path("id").asText()).isEqualTo(job);
        assertThat(push.path("lostSite").asText()).isEqualTo(chosen[0]);
        assertThat(push.path("site").asText()).isEqualTo(other);
        assertThat(push.at("/decision/reasons/0").asText())
                .isEqualTo("placed again: " + chosen[0] + " went offline before the job finished");
    }

    private static MqttLink providerLink(Brokers.Broker broker, String owner, Topics topics, List<JsonNode> pushed)
            throws Exception {
        MqttLink link = new MqttLink(VERTX, MqttLink.Options.persistent(broker.host(), broker.port(), owner));
        link.subscribe(topics.replacements(owner), 1, m -> {
            try {
                pushed.add(dev.continuum.edge.protocol.Wire.mapper().readTree(m.payload()));
                m.ack();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        link.start().get(10, TimeUnit.SECONDS);
        link.whenConnected().get(10, TimeUnit.SECONDS);
        return link;
    }

    @Test
    void shouldShowEachGatewayOnlineWithItsModelsQueueAndRecentGpuReadings() {
        String gateway = GATEWAYS.keySet().iterator().next();
        String site = "sites.find { it.name == '" + gateway + "' }";
        assertThat(Await.until(Duration.ofSeconds(30), () -> {
            List<Object> samples = given().auth().oauth2(token).get("/inventory").then().statusCode(200).extract().jsonPath()
                    .getList(site + ".gpuSamples");
            return samples != null && samples.size() >= 3;
        })).as("three heartbeats' GPU readings of " + gateway).isTrue();

        JsonPath inventory = given().auth().oauth2(token).get("/inventory").then().statusCode(200).extract().jsonPath();
        assertThat(inventory.getBoolean(site + ".online")).isTrue();
        assertThat(inventory.getString(site + ".kind")).isEqualTo("edge");
        assertThat(inventory.getList(site + ".models", String.class)).contains("ocr-cls@1");
        assertThat(inventory.getInt(site + ".gpus")).isEqualTo(1);
        assertThat(inventory.getString(site + ".gpuModel")).isEqualTo("NVIDIA A2");
        List<Integer> utilisation = inventory.getList(site + ".gpuSamples.collect { it.gpus[0].utilizationPercent }", Integer.class);
        assertThat(utilisation).allSatisfy(u -> assertThat(u).isBetween(0, 90));
        assertThat(java.util.Set.copyOf(utilisation)).as("readings change from heartbeat to heartbeat").hasSizeGreaterThan(1);
        assertThat(inventory.getList(site + ".gpuSamples.collect { it.gpus[0].memoryTotalMb }", Integer.class)).containsOnly(15360);
        List<String> at = inventory.getList(site + ".gpuSamples.at", String.class);
        assertThat(at).isSortedAccordingTo(java.util.Comparator.comparing(java.time.Instant::parse));
    }

    @Test
    void shouldCountTheGatewaysOnlineInItsMetricsForTheDashboard() throws Exception {
        assertThat(Await.until(Duration.ofSeconds(30), () -> metric("continuum_gateways{state=\"online\"}") == GATEWAYS.size()))
                .as("every running gateway counted online").isTrue();

        // deploy/grafana/continuum.json, row "Planner": every metric it queries is served here, per site once a
        // gateway has sent heartbeats with GPU readings and, for the predicted wait, once a job was placed there
        java.util.Set<String> queried = DashboardQueries.metrics(Path.of("../.."), "Planner");
        assertThat(queried).contains("continuum_gateways", "continuum_placement_site_queued",
                "continuum_placement_site_gpu_utilization_percent", "continuum_placement_site_predicted_wait_seconds");
        String[] placedAt = new String[1];
        int[] n = {0};
        assertThat(Await.until(Duration.ofSeconds(30), () -> {
            placedAt[0] = place("metrics-" + (++n[0])).getString("site");
            return GATEWAYS.containsKey(placedAt[0]);
        })).as("a job placed on a gateway").isTrue();
        assertThat(Await.until(Duration.ofSeconds(10),
                () -> metric("continuum_placement_site_predicted_wait_seconds{site=\"" + placedAt[0] + "\"}") >= 0))
                .as("predicted wait at " + placedAt[0]).isTrue();
        String site = GATEWAYS.keySet().iterator().next();
        assertThat(Await.until(Duration.ofSeconds(30), () -> metric("continuum_placement_site_gpu_utilization_percent{site=\"" + site + "\"}") >= 0))
                .as("GPU use of " + site).isTrue();
        assertThat(metric("continuum_placement_site_queued{site=\"" + site + "\"}")).as("queue of " + site).isGreaterThanOrEqualTo(0);
        String served = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(queried).allSatisfy(name -> assertThat(served).containsPattern("(?m)^" + name + "[{ ]"));
    }

    private static double metric(String series) {
        return given().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(line -> line.startsWith(series + " ") || line.startsWith(series.replace("}", ",")))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    @Test
    void shouldRefuseTheInventoryWithoutAToken() {
        given().get("/inventory").then().statusCode(401);
    }
}
