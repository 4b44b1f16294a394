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
import dev.continuum.provider.server.PostgresActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two inference provider instances on one PostgreSQL (ADR 0027), each with its own URL and MQTT session: either
 * answers for an action the other accepted, a repeated request_id sent to the other instance finds the same action,
 * and when the instance that accepted an action stops before its result, the other adopts it once the lease runs out
 * and finishes it, with the gateway running the task once.
 */
class SharedActionsTest {

    private static final Duration LEASE = Duration.ofSeconds(2);

    @TempDir
    Path state;

    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret("shared actions secret", Clock.systemUTC());
    private TestDatabase db;

    @BeforeEach
    void database() throws Exception {
        db = TestDatabase.create("inference_shared_");
    }

    @AfterEach
    void dropDatabase() throws Exception {
        db.close();
    }

    /** One provider instance: its own Vert.x, MQTT session (client id) and HTTP port, the shared table. */
    private final class Instance implements AutoCloseable {
        final Vertx vertx = Vertx.vertx();
        final PostgresActionStore store;
        final EdgeCloud cloud;
        final HttpServer server;

        Instance(Brokers.Broker broker, String name) throws Exception {
            store = new PostgresActionStore(db.url(), "postgres", "",
                    "inference_actions", name, LEASE);
            cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("shared-" + name), topics,
                    credentials, Clock.systemUTC());
            cloud.start().get(10, TimeUnit.SECONDS);
            server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx).withStore(store));
        }

        String url() {
            return ServedInferenceProvider.url(server);
        }

        /** Stops without handing anything over, as a killed process would: its leases simply stop being renewed. */
        @Override
        public void close() throws Exception {
            server.close();
            cloud.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            store.close();
        }
    }

    @Test
    void shouldAnswerForAndFinishAnActionWhoseInstanceStoppedBeforeItsResult() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        Vertx gatewayVertx = Vertx.vertx();
        String gwId = TestBrokers.freshId("shared-gw");
        try (TcpProxy link = new TcpProxy(gatewayVertx, broker.host(), broker.port())) {
            GatewayConfig cfg = GatewayConfig.of(gwId, "127.0.0.1", link.port(), state.resolve(gwId), credentials.bootstrapToken(gwId))
                    .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 30)
                    .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false)).withGpus(List::of);
            try (EdgeGateway gateway = new EdgeGateway(cfg, gatewayVertx, Clock.systemUTC());
                 Instance b = new Instance(broker, "inference-b")) {
                gateway.models().deploy("ocr-cls", "1", gateway.models().install(TestModels.ocrClassifier()));
                gateway.start().get(10, TimeUnit.SECONDS);

                String actionId;
                Instance a = new Instance(broker, "inference-a");
                try {
                    assertThat(Await.until(Duration.ofSeconds(15), () -> a.cloud.fleet().usable().size() == 1)).isTrue();
                    link.blackhole(); // the device still looks online, but the task will not reach it yet
                    JsonNode started = ProviderCalls.post(a.url() + "/run", ProviderCalls.classify("shared-1", 11));
                    actionId = started.get("action_id").asText();
                    assertThat(started.get("status").asText()).isEqualTo("ACTIVE");

                    JsonNode seenByB = ProviderCalls.get(b.url() + "/" + actionId + "/status");
                    assertThat(seenByB.get("status").asText()).as(seenByB.toString()).isEqualTo("ACTIVE");
                    assertThat(seenByB.at("/details/device_id").asText()).isEqualTo(gwId);
                    JsonNode repeatedAtB = ProviderCalls.post(b.url() + "/run", ProviderCalls.classify("shared-1", 11));
                    assertThat(repeatedAtB.get("action_id").asText()).as("the same request_id at the other instance")
                            .isEqualTo(actionId);
                } finally {
                    a.close(); // gone before any result exists, its lease on the action left to run out
                }
                assertThat(gateway.tasksRun()).isZero();

                link.cut(); // the gateway notices the dead link, reconnects, gets the task and runs it
                link.heal();
                JsonNode status = ProviderCalls.awaitFinal(b.url() + "/" + actionId + "/status");

                assertThat(status.get("status").asText()).as(status.toString()).isEqualTo("SUCCEEDED");
                assertThat(status.at("/details/output/shape").toString()).isEqualTo("[1,2]");
                assertThat(gateway.tasksRun()).as("tasks the gateway ran").isEqualTo(1);
                assertThat(ProviderCalls.get(b.url() + "/" + actionId + "/log").toString()).as("the adopting instance's log entry")
                        .contains("Resumed");
            }
        } finally {
            gatewayVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
