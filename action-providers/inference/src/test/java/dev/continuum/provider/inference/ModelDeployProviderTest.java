package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model deployment over HTTP, as a flow calls it: the real broker, two real gateways running the demo model as
 * {@code ocr-cls@1}, the deploy provider and the inference provider on one router, as the provider's main mounts
 * them. The "new model" is the demo model with a doc string appended (a valid ONNX file with another digest).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModelDeployProviderTest {

    @TempDir
    static Path state;

    private final Vertx vertx = Vertx.vertx();
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Topics topics = TestBrokers.freshTopics();
    private final List<EdgeGateway> gateways = new ArrayList<>();
    private String base;
    private Path modelRoot;
    private String gw1;
    private String gw2;
    private String originalDigest;

    @BeforeAll
    void startPlatform() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("deploy test secret", Clock.systemUTC());
        EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("provider"), topics,
                credentials, Clock.systemUTC());
        resources.add(cloud);
        cloud.start().get(10, TimeUnit.SECONDS);
        modelRoot = Files.createDirectories(state.resolve("datacenter"));

        Router router = Router.router(vertx);
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        StagedModels staged = new StagedModels(state.resolve("staged"), base + "/model-files");
        staged.mount(router, "/model-files");
        ActionProviderServer.mount(router, "/providers/inference/deploy",
                new ModelDeployProvider(cloud.fleet(), cloud.dispatcher(), staged, modelRoot, Clock.systemUTC()),
                ProviderServerOptions.of(vertx));
        ActionProviderServer.mount(router, "/providers/inference",
                new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC()), Clock.systemUTC()),
                ProviderServerOptions.of(vertx));
        ActionProviderServer.mount(router, "/providers/scientist-deploy",
                new ModelDeployProvider(cloud.fleet(), cloud.dispatcher(), staged, modelRoot, Clock.systemUTC()),
                ProviderServerOptions.of(vertx).withCallerResolver(new RoleRequired(
                        rc -> Caller.of("urn:continuum:user:scientist", Set.of("continuum-user")),
                        Set.of("continuum-admin", "continuum-model-deployer"))));

        gw1 = TestBrokers.freshId("gw");
        gw2 = TestBrokers.freshId("gw");
        for (String id : List.of(gw1, gw2)) {
            GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), state.resolve(id), credentials.bootstrapToken(id))
                    .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                    .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false));
            EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC());
            resources.add(gw);
            gateways.add(gw);
            originalDigest = gw.models().install(TestModels.ocrClassifier());
            gw.models().deploy("ocr-cls", "1", originalDigest);
            gw.start().get(10, TimeUnit.SECONDS);
        }
        assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet().usable().size() == 2)).isTrue();
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shouldDeployANewVersionToEveryGatewayAndReportEachGatewaysDigest() throws Exception {
        Path file = Files.createDirectories(modelRoot.resolve("models/retrained")).resolve("model.onnx");
        Files.write(file, withDocString(Files.readAllBytes(TestModels.ocrClassifier()), "retrained"));

        JsonNode started = run("/providers/inference/deploy", "d-ok", deployment("models/retrained/model.onnx", "ocr-cls", "2", gw1, gw2));
        JsonNode done = awaitFinal("/providers/inference/deploy", started.path("action_id").asText());

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        String digest = done.at("/details/digest").asText();
        assertThat(digest).startsWith("sha256:").isNotEqualTo(originalDigest);
        assertThat(done.at("/details/gateways")).hasSize(2).allSatisfy(g -> {
            assertThat(g.path("loaded").asBoolean()).isTrue();
            assertThat(g.path("digest").asText()).isEqualTo(digest);
            assertThat(g.path("previous_digest").asText()).isEqualTo(originalDigest);
            assertThat(g.path("changed").asBoolean()).isTrue();
        });
        // a task naming the model now runs the new version on either gateway
        for (String gw : List.of(gw1, gw2)) {
            ObjectNode job = Wire.mapper().createObjectNode().put("model", "ocr-cls");
            job.set("input", Wire.mapper().valueToTree(Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(3, 1))));
            job.putObject("constraints").put("device", gw);
            JsonNode classified = awaitFinal("/providers/inference", run("/providers/inference", "c-" + gw, job).path("action_id").asText());
            assertThat(classified.path("status").asText()).as(classified.toString()).isEqualTo("SUCCEEDED");
            assertThat(classified.at("/details/model_digest").asText()).isEqualTo(digest);
        }
        assertThat(gateways).allSatisfy(g -> assertThat(g.models().has(originalDigest)).as("the old version is retired").isFalse());
        HttpResponse<String> served = http.send(HttpRequest.newBuilder(URI.create(base + "/model-files/" + "0".repeat(64))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).as("nothing is served but a deployment in progress").isEqualTo(404);
    }

    @Test
    void shouldFailNamingTheGatewaysThatCouldNotLoadTheFile() throws Exception {
        Files.writeString(modelRoot.resolve("not-a-model.onnx"), "this is no ONNX model", StandardCharsets.UTF_8);
        ObjectNode body = deployment("not-a-model.onnx", "broken", "1", gw1);
        body.put("deadline_seconds", 3);

        JsonNode done = awaitFinal("/providers/inference/deploy", run("/providers/inference/deploy", "d-broken", body)
                .path("action_id").asText());

        assertThat(done.path("status").asText()).isEqualTo("FAILED");
        assertThat(done.at("/details/reason").asText()).contains(gw1);
        assertThat(done.at("/details/gateways/0/loaded").asBoolean()).isFalse();
    }

    @Test
    void shouldRefuseAModelPathOutsideTheModelRootNamingTheField() throws Exception {
        Files.writeString(state.resolve("secret.onnx"), "outside");
        Files.createSymbolicLink(modelRoot.resolve("link-out.onnx"), state.resolve("secret.onnx"));
        for (String path : List.of("../secret.onnx", "link-out.onnx", "missing/model.onnx", "%2e%2e/secret.onnx")) {
            HttpResponse<String> r = post("/providers/inference/deploy", "bad-" + path.hashCode(), deployment(path, "m", "1", gw1));
            assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(400);
            assertThat(Wire.mapper().readTree(r.body()).at("/errors/0/pointer").asText()).isEqualTo("/body/model_path");
        }
    }

    @Test
    void shouldRefuseAnUnknownGatewayNamingItsPlaceInTheList() throws Exception {
        Path file = modelRoot.resolve("copy.onnx");
        Files.copy(TestModels.ocrClassifier(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        HttpResponse<String> r = post("/providers/inference/deploy", "bad-device", deployment("copy.onnx", "m", "1", gw1, "gw-nobody"));

        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode problem = Wire.mapper().readTree(r.body());
        assertThat(problem.at("/errors/0/pointer").asText()).isEqualTo("/body/devices/1");
        assertThat(problem.toString()).contains("gw-nobody");
        HttpResponse<String> noDevices = post("/providers/inference/deploy", "no-devices",
                (ObjectNode) deployment("copy.onnx", "m", "1").set("devices", Wire.mapper().createArrayNode()));
        assertThat(noDevices.statusCode()).isEqualTo(400);
        assertThat(noDevices.body()).contains("/body/devices");
    }

    @Test
    void shouldRefuseACallerWithoutADeployerRole() throws Exception {
        HttpResponse<String> r = post("/providers/scientist-deploy", "no-role", deployment("copy.onnx", "m", "1", gw1));

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("continuum-model-deployer");
    }

    /** A valid ONNX file with another digest: ModelProto's doc_string (field 6) appended; the last value wins. */
    static byte[] withDocString(byte[] onnx, String doc) {
        byte[] text = doc.getBytes(StandardCharsets.UTF_8);
        byte[] out = java.util.Arrays.copyOf(onnx, onnx.length + 2 + text.length);
        out[onnx.length] = 0x32;
        out[onnx.length + 1] = (byte) text.length;
        System.arraycopy(text, 0, out, onnx.length + 2, text.length);
        return out;
    }

    private static ObjectNode deployment(String path, String name, String version, String... devices) {
        ObjectNode body = Wire.mapper().createObjectNode().put("model_path", path).put("name", name).put("version", version);
        var list = body.putArray("devices");
        for (String d : devices) {
            list.add(d);
        }
        return body;
    }

    private HttpResponse<String> post(String provider, String requestId, JsonNode body) throws Exception {
        ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", requestId);
        doc.set("body", body);
        return http.send(HttpRequest.newBuilder(URI.create(base + provider + "/run")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(doc.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode run(String provider, String requestId, JsonNode body) throws Exception {
        HttpResponse<String> r = post(provider, requestId, body);
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 202);
        return Wire.mapper().readTree(r.body());
    }

    private JsonNode awaitFinal(String provider, String actionId) throws Exception {
        return Awaitility.await("action " + actionId + " of " + provider + " to leave ACTIVE").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Wire.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(base + provider + "/" + actionId + "/status"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body()), status -> !status.path("status").asText().equals("ACTIVE"));
    }
}
