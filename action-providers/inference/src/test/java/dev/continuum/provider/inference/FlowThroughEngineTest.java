package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.app.EdgeGateway;
import dev.continuum.edge.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.testing.Await;
import dev.continuum.edge.testing.TestBrokers;
import dev.continuum.edge.testing.TestModels;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow run through the real engine: engine → inference provider (HTTP) → MQTT → gateway → ONNX
 * Runtime → back. Needs the engine built ({@code flow-engine/service/target/quarkus-app}: the pom makes
 * the reactor build it first); uses the machine's PostgreSQL when it answers, else an embedded one.
 */
class FlowThroughEngineTest {

    @TempDir
    Path state;

    @Test
    void shouldRunAFlowWhoseActionClassifiesAnImageOnAnEdgeGateway() throws Exception {
        Path repo = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (repo != null && !Files.exists(repo.resolve("flow-engine"))) {
            repo = repo.getParent();
        }
        assertThat(repo).as("repository root").isNotNull();
        Path engineJar = repo.resolve("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        // the reactor builds the engine first (test-scope dependency in the pom), so this runs in CI
        assertThat(engineJar).as("the engine must be built before this test (mvn -pl action-providers/inference -am)").exists();
        TestDatabase db = TestDatabase.create("edge_flow_");
        Vertx vertx = Vertx.vertx();
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = TestBrokers.freshTopics();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("flow test secret", Clock.systemUTC());
        int enginePort = Brokers.freePort();
        Process engine = null;
        try (EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("flow-provider"),
                topics, credentials, Clock.systemUTC())) {
            cloud.start().get(10, TimeUnit.SECONDS);
            Router router = Router.router(vertx);
            ActionProviderServer.mount(router, "/providers/inference",
                    new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new GatewayPlanner(Clock.systemUTC()), Clock.systemUTC()),
                    ProviderServerOptions.of(vertx));
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0)
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            String gwId = TestBrokers.freshId("flow-gw");
            GatewayConfig cfg = GatewayConfig.of(gwId, broker.host(), broker.port(), state.resolve(gwId),
                    credentials.bootstrapToken(gwId)).withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                    .withGpus(List::of);
            try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC())) {
                gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));
                gw.start().get(10, TimeUnit.SECONDS);
                assertThat(Await.until(Duration.ofSeconds(15), () -> !cloud.fleet().usable().isEmpty())).isTrue();

                ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar", engineJar.toString()).redirectErrorStream(true)
                        .redirectOutput(state.resolve("engine.log").toFile());
                pb.environment().putAll(db.engineEnvironment());
                pb.environment().put("CONTINUUM_AUTH_ENABLED", "false"); // this test is about the edge, not sign-in
                pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(enginePort));
                engine = pb.start();
                HttpClient http = HttpClient.newHttpClient();
                String base = "http://127.0.0.1:" + enginePort;
                boolean up = Await.until(Duration.ofSeconds(90), () -> {
                    try {
                        return http.send(HttpRequest.newBuilder(URI.create(base + "/flows")).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() < 500;
                    } catch (Exception e) {
                        return false;
                    }
                });
                assertThat(up).as("the engine started (see " + state.resolve("engine.log") + ")").isTrue();

                ObjectNode flow = (ObjectNode) Wire.mapper().readTree("""
                    {"title": "edge inference", "input_schema": {"type": "object"},
                     "definition": {"StartAt": "Classify", "States": {"Classify": {"Type": "Action",
                        "ActionUrl": "ACTION_URL", "Parameters": {"model": "ocr-cls@1", "input.$": "$.image"},
                        "ResultPath": "$.classified", "WaitTime": 120, "End": true}}}}"""
                        .replace("ACTION_URL", "http://127.0.0.1:" + server.actualPort() + "/providers/inference"));
                JsonNode created = post(http, base + "/flows", flow);
                ObjectNode run = Wire.mapper().createObjectNode();
                run.putObject("body").set("image",
                        Wire.mapper().valueToTree(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(11, 1))));
                String runId = post(http, base + "/flows/" + created.get("id").asText() + "/run", run).get("run_id").asText();

                JsonNode[] last = new JsonNode[1];
                Await.until(Duration.ofSeconds(60), () -> {
                    try {
                        last[0] = Wire.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/runs/" + runId)).build(),
                                HttpResponse.BodyHandlers.ofString()).body());
                        return !last[0].path("status").asText().equals("ACTIVE");
                    } catch (Exception e) {
                        return false;
                    }
                });

                assertThat(last[0].path("status").asText()).as(String.valueOf(last[0])).isEqualTo("SUCCEEDED");
                JsonNode details = last[0].at("/details/output/classified/details");
                assertThat(details.get("device_id").asText()).isEqualTo(gwId);
                assertThat(details.at("/output/shape").toString()).isEqualTo("[1,2]");
                assertThat(gw.tasksRun()).isEqualTo(1);
            }
        } finally {
            if (engine != null) {
                engine.destroy();
                engine.waitFor(20, TimeUnit.SECONDS);
            }
            vertx.close();
            db.drop();
        }
    }

    private static JsonNode post(HttpClient http, String url, JsonNode body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return Wire.mapper().readTree(r.body());
    }
}
