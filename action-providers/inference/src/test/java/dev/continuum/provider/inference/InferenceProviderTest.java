package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.ProviderServerOptions;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider over HTTP, the edge link over a real broker, real gateways running the real model:
 * {@code cpu-gw} (no GPU), {@code gpu-gw} (reports a GPU with 8 GB free — the nvidia-smi output is
 * stubbed, inference still runs on the CPU here) and {@code bare-gw} (no model deployed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InferenceProviderTest {

    @TempDir
    static Path state;

    private final Vertx vertx = Vertx.vertx();
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Topics topics = TestBrokers.freshTopics();
    private String url;
    private String cpuGw;
    private String gpuGw;
    private String bareGw;

    @BeforeAll
    void startPlatform() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("provider test secret", Clock.systemUTC());
        EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("provider"), topics,
                credentials, Clock.systemUTC());
        resources.add(cloud);
        cloud.start().get(10, TimeUnit.SECONDS);

        HttpServer server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx));
        url = ServedInferenceProvider.url(server);

        Path model = TestModels.ocrClassifier();
        cpuGw = TestBrokers.freshId("cpu-gw");
        gpuGw = TestBrokers.freshId("gpu-gw");
        bareGw = TestBrokers.freshId("bare-gw");
        startGateway(broker, credentials, cpuGw, model, List::of);
        startGateway(broker, credentials, gpuGw, model,
                () -> List.of(new GpuInfo(0, "NVIDIA T4 (stub)", 15360, 7360, 10)));
        startGateway(broker, credentials, bareGw, null, List::of);
        assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet().usable().size() == 3)).isTrue();
    }

    private void startGateway(Brokers.Broker broker, DeviceCredentials credentials, String id, Path model,
                              java.util.function.Supplier<List<GpuInfo>> gpus) throws Exception {
        GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false)).withGpus(gpus);
        EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC());
        resources.add(gw);
        if (model != null) {
            gw.models().deploy("ocr-cls", "1", gw.models().install(model));
        }
        gw.start().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private ObjectNode job(String model) {
        ObjectNode body = Wire.mapper().createObjectNode().put("model", model);
        body.set("input", Wire.mapper().valueToTree(Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(7, 1))));
        return body;
    }

    private HttpResponse<String> run(String requestId, JsonNode body, String callback) throws Exception {
        ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", requestId);
        doc.set("body", body);
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url + "/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(doc.toString()));
        if (callback != null) {
            req.header("X-Continuum-Callback", callback);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode awaitFinal(String actionId) throws Exception {
        try {
            return await("action " + actionId + " leaves ACTIVE").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> status(actionId), status -> !status.path("status").asText().equals("ACTIVE"));
        } catch (ConditionTimeoutException stillActive) {
            return status(actionId); // the caller's assertion says what it is
        }
    }

    private JsonNode status(String actionId) throws Exception {
        return Wire.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(url + "/" + actionId + "/status")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void shouldSucceedWithTheModelOutputFromAGatewayThatHasTheModel() throws Exception {
        HttpResponse<String> started = run("r-ok", job("ocr-cls@1"), null);
        assertThat(started.statusCode()).isEqualTo(202);

        JsonNode done = awaitFinal(Wire.mapper().readTree(started.body()).get("action_id").asText());

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode d = done.get("details");
        assertThat(d.get("device_id").asText()).isIn(cpuGw, gpuGw);
        assertThat(d.at("/output/shape").toString()).isEqualTo("[1,2]");
        float p0 = (float) d.at("/output/data/0").asDouble();
        float p1 = (float) d.at("/output/data/1").asDouble();
        assertThat(p0 + p1).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-4f));
        assertThat(d.get("model_digest").asText()).startsWith("sha256:");
    }

    @Test
    void shouldSayWhereTheJobRanAndWhyBesideWhatItTook() throws Exception {
        JsonNode done = awaitFinal(Wire.mapper().readTree(run("r-why", job("ocr-cls@1"), null).body()).get("action_id").asText());

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode d = done.get("details");
        assertThat(d.at("/placement/site").asText()).isEqualTo(d.get("device_id").asText());
        assertThat(d.at("/placement/reasons/0").asText()).startsWith(d.get("device_id").asText() + ": predicted");
        assertThat(d.at("/placement/predicted/total_ms").asLong()).isEqualTo(d.at("/placement/predicted/transfer_ms").asLong()
                + d.at("/placement/predicted/queue_ms").asLong() + d.at("/placement/predicted/compute_ms").asLong());
        assertThat(d.at("/placement/alternatives").findValuesAsText("site")).as("the other gateway with the model, scored")
                .containsAnyOf(cpuGw, gpuGw).doesNotContain(d.get("device_id").asText());
        // compute as the gateway measured it: reading the input, then the model's run
        assertThat(d.at("/actual/compute_ms").asLong()).isEqualTo(Math.round(d.get("input_ms").asDouble()
                + d.get("inference_ms").asDouble()));
        assertThat(d.at("/actual/total_ms").asLong()).isGreaterThanOrEqualTo(d.at("/actual/compute_ms").asLong());
    }

    @Test
    void shouldPlaceOnTheGatewayWithEnoughGpuMemory() throws Exception {
        ObjectNode body = job("ocr-cls");
        body.putObject("constraints").put("min_gpu_memory_mb", 4000);

        JsonNode done = awaitFinal(Wire.mapper().readTree(run("r-gpu", body, null).body()).get("action_id").asText());

        assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(gpuGw);
    }

    @Test
    void shouldFailWhenNoGatewayHasEnoughGpuMemory() throws Exception {
        ObjectNode body = job("ocr-cls");
        body.putObject("constraints").put("min_gpu_memory_mb", 64000);

        HttpResponse<String> response = run("r-nogpu", body, null);
        JsonNode status = Wire.mapper().readTree(response.body());

        assertThat(status.path("status").asText()).isEqualTo("FAILED");
        assertThat(status.at("/details/reason").asText()).contains("the job needs 64000 MiB");
    }

    @Test
    void shouldFailWithTheGatewayReasonWhenThePinnedDeviceLacksTheModelDigest() throws Exception {
        ObjectNode body = job("ocr-cls");
        body.putObject("constraints").put("device", bareGw);

        JsonNode status = Wire.mapper().readTree(run("r-bare", body, null).body());

        assertThat(status.path("status").asText()).isEqualTo("FAILED");
        assertThat(status.at("/details/reason").asText()).contains(bareGw + ": model ocr-cls is not loaded");
    }

    @Test
    void shouldRefuseAJobWithoutInput() throws Exception {
        HttpResponse<String> response = run("r-bad", Wire.mapper().createObjectNode().put("model", "ocr-cls"), null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).contains("problem+json"));
    }

    @Test
    void shouldReadInputFromAFileInTheGatewaysDataDirectory() throws Exception {
        for (String gw : List.of(cpuGw, gpuGw)) {
            Path frames = Files.createDirectories(state.resolve(gw).resolve("data/frames"));
            Files.write(frames.resolve("frame-3.json"), Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(3, 1))));
        }
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls").put("input_ref", "file:frames/frame-3.json");

        JsonNode done = awaitFinal(Wire.mapper().readTree(run("r-ref", body, null).body()).get("action_id").asText());

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void shouldRefuseAnInputRefThatLeavesTheDataDirectoryWith400NamingTheField() throws Exception {
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls").put("input_ref", "file:../../device-credential");

        HttpResponse<String> response = run("r-ref-out", body, null);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode problem = Wire.mapper().readTree(response.body());
        assertThat(problem.toString()).contains("/body/input_ref").contains("'..' segments are not allowed");
    }

    @Test
    void shouldFailTheActionWhenTheInputRefIsASymlinkOutOfTheDataDirectory() throws Exception {
        Path secret = Files.write(state.resolve("outside.json"), Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(4, 1))));
        for (String gw : List.of(cpuGw, gpuGw)) {
            Path data = Files.createDirectories(state.resolve(gw).resolve("data"));
            Files.createSymbolicLink(data.resolve("escape.json"), secret);
        }
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls").put("input_ref", "file:escape.json");

        JsonNode done = awaitFinal(Wire.mapper().readTree(run("r-ref-link", body, null).body()).get("action_id").asText());

        assertThat(done.path("status").asText()).isEqualTo("FAILED");
        assertThat(done.at("/details/error").asText()).contains("leads outside");
    }

    @Test
    void shouldPushTheCompletionToTheCallbackUrl() throws Exception {
        CompletableFuture<JsonNode> pushed = new CompletableFuture<>();
        HttpServer receiver = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
            pushed.complete(Wire.mapper().valueToTree(new io.vertx.core.json.JsonObject(b).getMap()));
            req.response().setStatusCode(204).end();
        })).listen(0).toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        try {
            HttpResponse<String> started = run("r-push", job("ocr-cls"), "http://127.0.0.1:" + receiver.actualPort() + "/cb");

            JsonNode status = pushed.get(30, TimeUnit.SECONDS);

            assertThat(status.get("action_id").asText()).isEqualTo(Wire.mapper().readTree(started.body()).get("action_id").asText());
            assertThat(status.get("status").asText()).isEqualTo("SUCCEEDED");
        } finally {
            receiver.close();
        }
    }
}
