package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider process dies while a task it accepted is still at the broker; a new provider on the
 * same action directory answers status for that action and receives its result, and the gateway
 * ran the task once.
 */
class ProviderRestartTest {

    @TempDir
    Path state;

    private final Topics topics = TestBrokers.freshTopics();
    private final String providerClientId = TestBrokers.freshId("restart-provider");
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret("restart test secret", Clock.systemUTC());

    /** One provider "process": its own Vert.x, MQTT session, HTTP server and the durable store. */
    private final class Provider implements AutoCloseable {
        final Vertx vertx = Vertx.vertx();
        final EdgeCloud cloud;
        final HttpServer server;

        Provider(Brokers.Broker broker) throws Exception {
            cloud = new EdgeCloud(vertx, broker.host(), broker.port(), providerClientId, topics, credentials, Clock.systemUTC());
            cloud.start().get(10, TimeUnit.SECONDS);
            server = ServedInferenceProvider.serve(vertx, cloud,
                    ProviderServerOptions.of(vertx).withStore(new FileActionStore(state.resolve("provider/actions"))));
        }

        String url() {
            return ServedInferenceProvider.url(server);
        }

        @Override
        public void close() throws Exception {
            server.close();
            cloud.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldAnswerStatusAndReceiveTheResultOfAnActionAcceptedBeforeARestart() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        Vertx gatewayVertx = Vertx.vertx();
        String gwId = TestBrokers.freshId("restart-gw");
        try (TcpProxy link = new TcpProxy(gatewayVertx, broker.host(), broker.port())) {
            GatewayConfig cfg = GatewayConfig.of(gwId, "127.0.0.1", link.port(), state.resolve(gwId), credentials.bootstrapToken(gwId))
                    .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 30)
                    .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false)).withGpus(List::of);
            try (EdgeGateway gateway = new EdgeGateway(cfg, gatewayVertx, Clock.systemUTC())) {
                gateway.models().deploy("ocr-cls", "1", gateway.models().install(TestModels.ocrClassifier()));
                gateway.start().get(10, TimeUnit.SECONDS);

                String actionId;
                Provider first = new Provider(broker);
                try {
                    assertThat(Await.until(Duration.ofSeconds(15), () -> first.cloud.fleet().usable().size() == 1)).isTrue();
                    link.blackhole(); // the device still looks online, but the task will not reach it yet
                    JsonNode started = ProviderCalls.post(first.url() + "/run", ProviderCalls.classify("restart-1", 11));
                    actionId = started.get("action_id").asText();
                    assertThat(started.get("status").asText()).isEqualTo("ACTIVE");
                } finally {
                    first.close(); // the provider is gone before any result exists
                }
                assertThat(gateway.tasksRun()).isZero();

                link.cut();   // the gateway notices the dead link, reconnects, gets the task and runs it
                link.heal();
                try (Provider second = new Provider(broker)) {
                    JsonNode status = ProviderCalls.awaitFinal(second.url() + "/" + actionId + "/status");

                    assertThat(status.get("status").asText()).as(status.toString()).isEqualTo("SUCCEEDED");
                    assertThat(status.at("/details/device_id").asText()).isEqualTo(gwId);
                    assertThat(status.at("/details/output/shape").toString()).isEqualTo("[1,2]");
                    assertThat(gateway.tasksRun()).isEqualTo(1);
                }
            }
        } finally {
            gatewayVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
