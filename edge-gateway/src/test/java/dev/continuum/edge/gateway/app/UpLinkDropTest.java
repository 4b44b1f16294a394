package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.gateway.testing.Closer;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge as {@code up} runs it — its embedded broker with logins and per-device topics (ADR 0011), the cloud side
 * logged in as the operator, two gateways — when one gateway's link drops in the middle of a burst and comes back:
 * every task runs once, every result reaches the cloud, and both outboxes empty and stay empty.
 */
class UpLinkDropTest {

    private static final String SECRET = "up link drop secret";
    private static final int TASKS_PER_GATEWAY = 30;

    @TempDir
    Path state;

    private final Vertx vertx = Vertx.vertx();
    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret(SECRET, Clock.systemUTC());
    private final Closer started = new Closer();

    @AfterEach
    void closeAll() throws Exception {
        started.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shouldDeliverEveryResultOnceAndEmptyEveryOutboxWhenOneGatewaysLinkDropsMidBurst() throws Exception {
        Brokers.EmbeddedBroker broker = started.track(Brokers.EmbeddedBroker.startSecured(Brokers.freePort(), null,
                BrokerAccess.forSecret(topics, credentials, SECRET)));
        MqttLink.Login operator = MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(SECRET));
        CloudSide cloud = started.track(new CloudSide(vertx, broker.host(), broker.port(), topics, credentials, operator));
        TcpProxy cutLink = started.track(new TcpProxy(vertx, broker.host(), broker.port()));
        EdgeGateway dropping = startGateway("gw-drop", cutLink.port(), broker);
        EdgeGateway steady = startGateway("gw-steady", broker.port(), broker);
        List<String> arrivals = new CopyOnWriteArrayList<>();
        MqttLink observer = started.track(new MqttLink(vertx, MqttLink.Options.persistent(broker.host(), broker.port(),
                TestBrokers.freshId("observer")).withLogin(operator)));
        observer.subscribe(topics.allResults(), 1, m -> {
            arrivals.add(Wire.decode(m.payload(), ResultMessage.class).taskId());
            m.ack();
        });
        observer.start().get(10, TimeUnit.SECONDS);
        observer.whenConnected().get(10, TimeUnit.SECONDS);

        List<CompletableFuture<ResultMessage>> results = new ArrayList<>();
        for (int i = 0; i < TASKS_PER_GATEWAY; i++) {
            results.add(cloud.dispatcher.send("gw-drop", task("drop-" + i, i)));
            results.add(cloud.dispatcher.send("gw-steady", task("steady-" + i, i)));
            if (i == TASKS_PER_GATEWAY / 2) {
                cutLink.cut(); // mid-burst: some tasks spooled, some running, some still at the broker
            }
        }
        Await.until(Duration.ofSeconds(10), () -> !dropping.connected());
        Thread.sleep(1500); // the cut gateway works offline for a while
        cutLink.heal();

        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(90, TimeUnit.SECONDS);
        boolean drained = Await.until(Duration.ofSeconds(30), () -> dropping.undeliveredResults() == 0
                && steady.undeliveredResults() == 0 && arrivals.stream().distinct().count() == 2L * TASKS_PER_GATEWAY);
        // copies may still come while the broker re-sends tasks whose acknowledgements were lost with the link (each
        // is answered with its result): they must stop — two re-send intervals with nothing new
        boolean settled = quietFor(arrivals, ResultOutbox.RESEND_AFTER.multipliedBy(2), Duration.ofSeconds(60));
        long distinct = arrivals.stream().distinct().count();
        System.out.printf("UP-LINK-DROP tasks=%d results=%d copies=%d settled=%s%n", 2 * TASKS_PER_GATEWAY, distinct,
                arrivals.size() - distinct, settled);

        assertThat(results).allSatisfy(f -> assertThat(f.join().succeeded()).isTrue());
        assertThat(drained).as("outboxes %d and %d, distinct results at the cloud %d", dropping.undeliveredResults(),
                steady.undeliveredResults(), arrivals.stream().distinct().count()).isTrue();
        assertThat(dropping.tasksRun()).as("tasks the cut gateway ran").isEqualTo(TASKS_PER_GATEWAY);
        assertThat(steady.tasksRun()).as("tasks the steady gateway ran").isEqualTo(TASKS_PER_GATEWAY);
        assertThat(settled).as("results still published %s after both outboxes emptied: %d in all", Duration.ofSeconds(60),
                arrivals.size()).isTrue();
        assertThat(dropping.undeliveredResults() + steady.undeliveredResults()).isZero();
        Await.until(Duration.ofSeconds(5), () -> cloud.dispatcher.pendingFor("gw-drop") + cloud.dispatcher.pendingFor("gw-steady") == 0);
        assertThat(cloud.dispatcher.pendingFor("gw-drop") + cloud.dispatcher.pendingFor("gw-steady"))
                .as("tasks the cloud still waits for").isZero();
    }

    /** True once {@code seen} has not grown for {@code quiet}, waiting at most {@code limit}. */
    private static boolean quietFor(List<String> seen, Duration quiet, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        int size = seen.size();
        long changed = System.nanoTime();
        while (System.nanoTime() < deadline) {
            if (seen.size() != size) {
                size = seen.size();
                changed = System.nanoTime();
            } else if (System.nanoTime() - changed >= quiet.toNanos()) {
                return true;
            }
            Thread.sleep(200); // measures a quiet period: no condition to wait on, only time without growth
        }
        return false;
    }

    private EdgeGateway startGateway(String id, int port, Brokers.Broker broker) throws Exception {
        GatewayConfig config = GatewayConfig.of(id, broker.host(), port, state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics)
                .withHeartbeat(Duration.ofMillis(300), 2)
                .withMaxBatch(4)
                .withSpoolLimits(TaskSpool.Limits.defaults())
                .withGpus(List::of);
        EdgeGateway gw = started.track(new EdgeGateway(config, vertx, Clock.systemUTC()));
        gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));
        gw.start().get(10, TimeUnit.SECONDS);
        assertThat(Await.until(Duration.ofSeconds(10), () -> gw.credential().isPresent()))
                .as(id + " registered on the secured broker").isTrue();
        return gw;
    }

    private static TaskMessage task(String id, long seed) {
        return new TaskMessage(id, "ocr-cls", Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(seed, 1)), null,
                Instant.now().plusSeconds(120).toString(), null);
    }
}
