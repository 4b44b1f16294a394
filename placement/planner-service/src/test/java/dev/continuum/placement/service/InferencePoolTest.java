package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.service.support.GatewayProcess;
import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PoolProfile;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.inference.EdgeCloud;
import dev.continuum.provider.inference.InferenceProvider;
import dev.continuum.provider.inference.PlannerServicePlacement;
import dev.continuum.provider.inference.ServedInferenceProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The inference provider placing every job through the planner service: two real edge gateway processes and the
 * datacenter inference pool (the same runtime in the datacenter role), all with the real OCR model on ONNX Runtime,
 * reporting over real MQTT. The planner weighs running beside the data against moving it, logs each decision under
 * the action and its run, and when the gateway a job was sent to dies the provider sends the job where the planner
 * places it again, and it completes there. A slow transfer, reported as the transfer provider reports it (the same
 * {@link PlannerClient} call, signed as the realm's reporter service account), turns a decision around.
 */
@QuarkusTest
@TestProfile(PoolProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InferencePoolTest {

    private static final Vertx VERTX = Vertx.vertx();
    private static final List<AutoCloseable> CLOSE = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The jobs whose re-placement the planner pushed to the provider. */
    private static final List<String> PUSHED = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static GatewayProcess edgeA;
    private static String providerUrl;
    private static PlannerClient planner;
    private static String userToken;

    @BeforeEach
    void startOnce() throws Exception {
        if (providerUrl != null) {
            return;
        }
        Path model = TestModels.ocrClassifier(); // skips, saying why, when the build could not fetch the model
        Brokers.Broker broker = TestBrokers.shared();
        DeviceCredentials credentials = DeviceCredentials.fromSecret(PoolProfile.SECRET, Clock.systemUTC());
        Topics topics = new Topics(PoolProfile.TOPIC_ROOT);
        // the provider's end of the edge link (it registers the gateways) and its HTTP API
        EdgeCloud cloud = new EdgeCloud(VERTX, broker.host(), broker.port(), TestBrokers.freshId("pool-provider"), topics,
                credentials, Clock.systemUTC());
        CLOSE.add(cloud);
        cloud.start().get(10, TimeUnit.SECONDS);
        ServiceAccountToken reporter = reporterAccount();
        planner = new PlannerClient(URI.create("http://127.0.0.1:" + RestAssured.port + "/"), reporter::current);
        // named as the job's owner, so the planner pushes its re-placements over the broker (docs/placement.md)
        PlannerServicePlacement placement = new PlannerServicePlacement(planner, cloud.clientId());
        cloud.onReplacement(pushed -> {
            PUSHED.add(pushed.id());
            placement.pushed(pushed);
        });
        HttpServer provider = ServedInferenceProvider.serve(VERTX, new InferenceProvider(cloud.fleet(), cloud.dispatcher(),
                placement, Clock.systemUTC(), "datacenter"), ProviderServerOptions.of(VERTX));

        Path state = Files.createTempDirectory("planner-pool");
        edgeA = gateway(PoolProfile.EDGE_A, "edge", broker, credentials, state, model);
        gateway(PoolProfile.EDGE_B, "edge", broker, credentials, state, model);
        gateway(PoolProfile.POOL, "datacenter", broker, credentials, state, model);
        userToken = KeycloakResource.token("scientist");
        assertThat(Await.until(Duration.ofSeconds(60), () -> cloud.fleet().usable().size() == 3
                        && given().auth().oauth2(userToken).get("/inventory").then().extract().jsonPath()
                        .getList("sites.findAll { it.online }").size() == 3))
                .as("both gateways and the pool online at the provider and the planner").isTrue();
        providerUrl = ServedInferenceProvider.url(provider);
    }

    /**
     * The realm's reporter service account, as the providers sign in with it. A Keycloak started from this machine's
     * shared install may have imported another worktree's copy of the realm file (they share its import directory), so
     * the account is created from this realm file's own entry if that Keycloak does not know it.
     */
    private static ServiceAccountToken reporterAccount() throws Exception {
        ServiceAccountToken reporter = new ServiceAccountToken(new TokenClient(KeycloakServer.shared().issuer()),
                ClientCredentials.confidential("continuum-planner-reporter", "continuum-planner-reporter-local-secret"),
                Clock.systemUTC());
        try {
            reporter.current();
        } catch (dev.continuum.auth.oidc.TokenRefusedException e) {
            try (var realm = KeycloakServer.class.getClassLoader().getResourceAsStream(KeycloakServer.REALM_RESOURCES.getFirst())) {
                for (JsonNode client : Wire.mapper().readTree(realm).path("clients")) {
                    if (client.path("clientId").asText().equals("continuum-planner-reporter")) {
                        new dev.continuum.auth.keycloak.KeycloakAdmin(KeycloakServer.shared()).createClient(client.toString());
                    }
                }
            }
        }
        return reporter;
    }

    private static GatewayProcess gateway(String id, String role, Brokers.Broker broker, DeviceCredentials credentials,
                                          Path state, Path model) throws Exception {
        GatewayProcess gw = GatewayProcess.start(id, role, broker, PoolProfile.TOPIC_ROOT, credentials.bootstrapToken(id),
                state.resolve(id), model);
        CLOSE.add(gw);
        // the same camera frame in every site's storage: whichever runs the job reads it there
        Files.write(gw.dataDir().resolve("frame.json"), Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(5, 1))));
        return gw;
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : CLOSE.reversed()) {
            c.close();
        }
        VERTX.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void shouldRunAtTheEdgeBesideLargeDataAndLogWhyUnderTheActionAndItsRun() throws Exception {
        String run = "run-" + UUID.randomUUID();

        JsonNode done = runToEnd(run, job(PoolProfile.EDGE_A, 150_000_000));

        assertThat(done.at("/status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(PoolProfile.EDGE_A);
        assertThat(done.at("/details/output/data").size()).as("the model's two class scores").isEqualTo(2);
        assertThat(done.at("/details/placement/predicted/transfer_ms").asLong()).isZero();
        assertThat(done.at("/details/actual/compute_ms").asLong()).isEqualTo(Math.round(
                done.at("/details/input_ms").asDouble() + done.at("/details/inference_ms").asDouble()));
        String action = done.at("/action_id").asText();
        JsonPath log = given().auth().oauth2(userToken).get("/placements/" + action).then().statusCode(200).extract().jsonPath();
        assertThat(log.getString("runId")).isEqualTo(run);
        assertThat(log.getString("site")).isEqualTo(PoolProfile.EDGE_A);
        // moving 150 MB to the pool over 0.1 Gbit/s was weighed and lost; the other gateway has no link to the data
        assertThat(log.getString("decisions[0].decision.alternatives.find { it.site == '" + PoolProfile.POOL
                + "' }.latency.transferMillis")).satisfies(ms -> assertThat(Long.parseLong(ms)).isGreaterThan(10_000));
        assertThat(log.getList("decisions[0].decision.reasons", String.class))
                .anySatisfy(r -> assertThat(r).startsWith(PoolProfile.EDGE_B + ": no link to " + PoolProfile.EDGE_A));
        assertThat(given().auth().oauth2(userToken).queryParam("subject", run).get("/placements").then().statusCode(200)
                .extract().jsonPath().getList("placements.id", String.class)).containsExactly(action);
    }

    @Test
    @Order(2)
    void shouldRunInTheDatacenterPoolBesideDataThatLiesInTheDatacenter() throws Exception {
        JsonNode done = runToEnd("run-" + UUID.randomUUID(), job("datacenter", 150_000_000));

        assertThat(done.at("/status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(PoolProfile.POOL);
        JsonPath log = given().auth().oauth2(userToken).get("/placements/" + done.at("/action_id").asText()).then()
                .statusCode(200).extract().jsonPath();
        assertThat(log.getString("decisions[0].decision.chosen.site")).isEqualTo(PoolProfile.POOL);
        assertThat(log.getList("decisions[0].decision.alternatives.collect { it.latency.transferMillis }", Long.class))
                .as("either gateway would first pull 150 MB from the datacenter").allSatisfy(ms -> assertThat(ms).isGreaterThan(10_000L));
        JsonPath inventory = given().auth().oauth2(userToken).get("/inventory").then().extract().jsonPath();
        assertThat(inventory.getString("sites.find { it.name == '" + PoolProfile.POOL + "' }.kind")).isEqualTo("datacenter");
    }

    @Test
    @Order(3)
    void shouldSendTheJobWhereThePlannerPlacesItAgainWhenItsGatewayDiesMidJob() throws Exception {
        edgeA.freeze(); // hung before it takes the task: the planner still sees it online until its session times out
        // 150 MB beside edge-a: the first choice is edge-a whatever the sites' learnt compute and overhead (a small
        // input went to the pool when edge-a's first, cold job had taught it 2 s of compute and 1.2 s of overhead)
        ObjectNode body = job(PoolProfile.EDGE_A, 150_000_000);

        String action = start("run-" + UUID.randomUUID(), body);
        edgeA.kill();
        JsonNode done = awaitFinal(action, Duration.ofSeconds(60));

        assertThat(done.at("/status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/placed_again_from").asText()).isEqualTo(PoolProfile.EDGE_A);
        assertThat(done.at("/details/device_id").asText()).as("the pool: the other gateway has no link to the data")
                .isEqualTo(PoolProfile.POOL);
        JsonPath log = given().auth().oauth2(userToken).get("/placements/" + action).then().statusCode(200).extract().jsonPath();
        assertThat(log.getString("decisions[0].site")).isEqualTo(PoolProfile.EDGE_A);
        assertThat(log.getString("decisions[1].cause")).isEqualTo("inventory");
        assertThat(log.getString("decisions[1].decision.reasons[0]"))
                .isEqualTo("placed again: " + PoolProfile.EDGE_A + " went offline before the job finished");
        assertThat(log.getString("site")).isEqualTo(PoolProfile.POOL);
        assertThat(PUSHED).as("the re-placement pushed to the provider").contains(action);
    }

    @Test
    @Order(4)
    void shouldMoveTheDataToThePoolUntilATransferMeasuresTheLinkSlowThenRunBesideIt() {
        // the edge gateway is slow at this model (3 s a frame), the pool fast (20 ms): taught by completions
        for (int i = 0; i < 12; i++) {
            teach(PoolProfile.EDGE_B, 3000);
            teach(PoolProfile.POOL, 20);
        }
        // 20 MB at edge-b: over the configured 0.1 Gbit/s link that is 1.6 s to the pool, still faster than 3 s
        assertThat(planner.place(dataAt(PoolProfile.EDGE_B, 20_000_000)).path("site").asText()).isEqualTo(PoolProfile.POOL);

        // what the transfer provider reports after each transfer: five of 1 MB in 2 s between edge-b's storage and the
        // datacenter (the configured link counts as one more sample: the mean falls to 2.5 MB/s)
        for (int i = 0; i < 5; i++) {
            JsonNode used = planner.transferMeasured(PoolProfile.EDGE_B, "datacenter", 1_000_000, 2.0);
            assertThat(used.path("used").asBoolean()).as(used.toString()).isTrue();
        }

        JsonNode after = planner.place(dataAt(PoolProfile.EDGE_B, 20_000_000));
        assertThat(after.path("site").asText()).as("8 s to move the data now: run beside it").isEqualTo(PoolProfile.EDGE_B);
        JsonNode pool = after.at("/decisions/0/decision/alternatives/0");
        assertThat(pool.path("site").asText()).isEqualTo(PoolProfile.POOL);
        assertThat(pool.at("/latency/transferMillis").asLong()).isGreaterThan(5_000);
        assertThat(pool.path("explanation").asText()).contains("measured");
    }

    private static void teach(String site, long computeMillis) {
        String id = "teach-" + UUID.randomUUID();
        planner.place(Wire.mapper().createObjectNode().put("id", id).put("kind", "inference").put("model", "ocr-cls@1")
                .put("site", site));
        planner.completed(id, site, computeMillis);
    }

    private static ObjectNode dataAt(String endpoint, long bytes) {
        ObjectNode job = Wire.mapper().createObjectNode().put("kind", "inference").put("model", "ocr-cls@1");
        job.putArray("data").addObject().put("endpointId", endpoint).put("path", "frame.json").put("sizeBytes", bytes);
        return job;
    }

    /** The frame every site holds, said to lie at {@code endpoint} with {@code bytes} (what the planner weighs). */
    private static ObjectNode job(String endpoint, long bytes) {
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls@1").put("input_ref", "file:frame.json")
                .put("deadline_seconds", 90);
        body.putObject("input_location").put("endpoint_id", endpoint).put("size_bytes", bytes);
        return body;
    }

    private static JsonNode runToEnd(String run, ObjectNode body) throws Exception {
        return awaitFinal(start(run, body), Duration.ofSeconds(60));
    }

    /** As the engine calls it: request id {@code <run>/<state>/<visit>/<attempt>}. */
    private static String start(String run, ObjectNode body) throws Exception {
        ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", run + "/Classify/0/0");
        doc.set("body", body);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(providerUrl + "/run"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(doc.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 202);
        return Wire.mapper().readTree(r.body()).get("action_id").asText();
    }

    private static JsonNode awaitFinal(String action, Duration within) throws Exception {
        JsonNode[] last = new JsonNode[1];
        Await.until(within, () -> {
            try {
                last[0] = Wire.mapper().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(providerUrl + "/" + action + "/status"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body());
            } catch (Exception e) {
                return false;
            }
            String s = last[0].path("status").asText();
            return s.equals("SUCCEEDED") || s.equals("FAILED");
        });
        return last[0];
    }
}
