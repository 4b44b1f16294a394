package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        TestDatabase db = TestDatabase.create("edge_flow_");
        Vertx vertx = Vertx.vertx();
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = TestBrokers.freshTopics();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("flow test secret", Clock.systemUTC());
        int enginePort = Brokers.freePort();
        EngineProcess engine = null;
        try (EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("flow-provider"),
                topics, credentials, Clock.systemUTC())) {
            cloud.start().get(10, TimeUnit.SECONDS);
            HttpServer server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx));
            String gwId = TestBrokers.freshId("flow-gw");
            GatewayConfig cfg = GatewayConfig.of(gwId, broker.host(), broker.port(), state.resolve(gwId),
                    credentials.bootstrapToken(gwId)).withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                    .withGpus(List::of);
            try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC())) {
                gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));
                gw.start().get(10, TimeUnit.SECONDS);
                assertThat(Await.until(Duration.ofSeconds(15), () -> !cloud.fleet().usable().isEmpty())).isTrue();

                engine = EngineProcess.start(db, enginePort, state.resolve("engine.log"), Map.of());
                String runId = engine.startClassification(ServedInferenceProvider.url(server));
                JsonNode finished = engine.awaitFinished(runId, Duration.ofSeconds(60));

                assertThat(finished.path("status").asText()).as(String.valueOf(finished)).isEqualTo("SUCCEEDED");
                JsonNode details = finished.at("/details/output/classified/details");
                assertThat(details.get("device_id").asText()).isEqualTo(gwId);
                assertThat(details.at("/output/shape").toString()).isEqualTo("[1,2]");
                assertThat(gw.tasksRun()).isEqualTo(1);
            }
        } finally {
            if (engine != null) {
                engine.close();
            }
            vertx.close();
            db.close();
        }
    }
}
