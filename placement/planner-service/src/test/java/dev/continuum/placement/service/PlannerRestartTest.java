package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.service.config.PlannerProducers;
import dev.continuum.placement.service.adapters.mqtt.GatewayFeed;
import dev.continuum.placement.service.adapters.mqtt.MqttReplacementPush;
import dev.continuum.placement.service.adapters.persistence.JdbcSiteReports;
import dev.continuum.placement.service.adapters.rest.PlannerRecovery;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlacementLog;
import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.config.PlannerSettings;
import dev.continuum.placement.service.config.TopologyFile;
import dev.continuum.placement.service.support.GatewaysProfile;
import dev.continuum.placement.service.support.KeycloakResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A planner restarted over the same PostgreSQL and the same broker loses nothing: the jobs the log shows running
 * or waiting are taken back, the training partitions a backend reported come back from the database, the gateway
 * comes back from its retained status and heartbeats, and new decisions account for all of them. The restart is
 * a second planner (core, live inventory, MQTT feed, recovery — the objects a start builds) beside the running
 * service, in the same JVM; it serves in-process calls.
 */
@QuarkusTest
@TestProfile(GatewaysProfile.class)
class PlannerRestartTest {

    private static final Vertx VERTX = Vertx.vertx();
    private static EdgeGateway gateway;
    private static String gatewayId;
    private static CloudSide cloud;

    @Inject PlacementLog log;
    @Inject JdbcSiteReports reports;
    @Inject PlannerSettings settings;
    @Inject Vertx quarkusVertx;

    @BeforeAll
    static void startGateway() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        DeviceCredentials credentials = DeviceCredentials.fromSecret(GatewaysProfile.SECRET, Clock.systemUTC());
        cloud = new CloudSide(VERTX, broker.host(), broker.port(), new Topics(GatewaysProfile.TOPIC_ROOT), credentials, null);
        gatewayId = TestBrokers.freshId("gw-r");
        Path state = Files.createTempDirectory("planner-restart");
        GatewayConfig cfg = GatewayConfig.of(gatewayId, broker.host(), broker.port(), state, credentials.bootstrapToken(gatewayId))
                .withTopics(new Topics(GatewaysProfile.TOPIC_ROOT)).withHeartbeat(Duration.ofSeconds(2), 5)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false));
        gateway = new EdgeGateway(cfg, VERTX, Clock.systemUTC());
        gateway.models().deploy("ocr-cls", "1", gateway.models().install(TestModels.ocrClassifier()));
        gateway.start().get(20, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        cloud.close();
        VERTX.close();
    }

    private static RequestSpecification api() {
        return given().auth().oauth2(KeycloakResource.token("scientist")).contentType("application/json");
    }

    @Test
    void shouldTakeBackEveryUnfinishedJobAndRebuildTheInventoryAfterARestart() {
        String site = TestBrokers.freshId("slurm-r");
        api().body("""
                {"site": "%s", "partitions": [{"name": "gpu-r", "nodes": ["r1", "r2"], "gpusPerNode": 2, "gpuModel": "L4"}]}"""
                .formatted(site)).put("/inventory/partitions").then().statusCode(200);
        String t1 = site + "-t1";
        String t2 = site + "-t2";
        api().body(training(t1, 4)).post("/placements").then().statusCode(201).body("status", org.hamcrest.Matchers.equalTo("placed"));
        api().body(training(t2, 2)).post("/placements").then().statusCode(201).body("status", org.hamcrest.Matchers.equalTo("queued"));
        String img = site + "-img";
        assertThat(Await.until(Duration.ofSeconds(30), () -> gatewayId.equals(api().body("""
                {"id": "%s-%d", "kind": "inference", "model": "ocr-cls@1"}""".formatted(img, System.nanoTime()))
                .post("/placements").then().extract().jsonPath().getString("site")))).as("the gateway reported in").isTrue();
        api().body("""
                {"id": "%s", "kind": "inference", "model": "ocr-cls@1"}""".formatted(img)).post("/placements")
                .then().statusCode(201).body("site", org.hamcrest.Matchers.equalTo(gatewayId));

        // the restart: what a start builds, over the same database and broker
        long start = System.nanoTime();
        TopologyFile topology = TopologyFile.read(Path.of(settings.topology().orElseThrow()));
        LiveInventory inventory = new LiveInventory(topology.inventory(), topology.edgeLinks());
        PlannerService planner = new PlannerService(new OnlinePlanner(PlannerProducers.config(settings)),
                inventory, log, Clock.systemUTC());
        GatewayFeed feed = new GatewayFeed(settings, inventory, new GpuHistory(settings.gpuHistorySamples()), planner, quarkusVertx,
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), new MqttReplacementPush());
        feed.connect();
        try {
            PlannerRecovery.Recovered recovered = PlannerRecovery.recover(reports, inventory, planner);
            assertThat(recovered.jobs()).isGreaterThanOrEqualTo(3);
            assertThat(Await.until(Duration.ofSeconds(30), () -> online(inventory, gatewayId)))
                    .as("the gateway back from its retained status and heartbeat").isTrue();
            long rebuiltMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("planner restart: %d reported sites and %d jobs from the log in %d ms, inventory with the gateway in %d ms%n",
                    recovered.sites(), recovered.jobs(), recovered.millis(), rebuiltMillis);
            assertThat(rebuiltMillis).as("inventory rebuilt (issue 13: within 10 s)").isLessThan(10_000);
            assertThat(inventory.snapshot().cluster(site)).as("the reported partitions, from the database").isNotNull();

            // t1 still holds all 4 GPUs and t2 still waits: a new job queues behind t2
            List<DecisionRecord> t3 = planner.place(PlacementRequest.training(site + "-t3", Demand.wholeGpus(2), "gpu-r", 60), null);
            assertThat(t3.getFirst().decision()).isInstanceOf(PlacementDecision.Queued.class);
            assertThat(((PlacementDecision.Queued) t3.getFirst().decision()).reasons().getFirst())
                    .contains("0 GPUs free", "2 jobs waiting");
            // t1 finishes: t2, queued before the restart, starts on the freed GPUs
            List<DecisionRecord> freed = planner.completed(t1, site, "", 1000);
            assertThat(freed).extracting(DecisionRecord::requestId).contains(t2);
            assertThat(log.decisionsOf(t2).getLast().status()).isEqualTo("placed");

            // the inference job is still tracked on its gateway: if the gateway goes away it is placed again
            // (the feed is stopped first, so its next heartbeat does not bring the gateway back meanwhile)
            feed.disconnect();
            var gw = inventory.snapshot().cluster(gatewayId);
            inventory.putGateway(gw, inventory.snapshot().statusOf(gw).offline());
            planner.inventoryChanged();
            DecisionRecord again = log.decisionsOf(img).getLast();
            assertThat(again.cause()).isEqualTo(DecisionRecord.Cause.INVENTORY);
            assertThat(again.at()).isAfter(java.time.Instant.ofEpochMilli(System.currentTimeMillis() - 60_000));
        } finally {
            feed.disconnect();
        }
    }

    private static boolean online(LiveInventory inventory, String site) {
        var snapshot = inventory.snapshot();
        var cluster = snapshot.cluster(site);
        return cluster != null && snapshot.statusOf(cluster).online();
    }

    private static String training(String id, int gpus) {
        return """
                {"id": "%s", "kind": "training", "minGpus": %d, "partition": "gpu-r", "estimatedSeconds": 600,
                 "demand": {"gpus": %d, "gpuModels": ["L4"]}}""".formatted(id, gpus, gpus);
    }
}
