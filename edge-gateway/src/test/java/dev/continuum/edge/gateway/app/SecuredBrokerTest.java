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
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.mqtt.MqttClient;
import io.vertx.mqtt.MqttClientOptions;
import io.vertx.mqtt.MqttConnectionException;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded broker with authentication and per-device ACLs on (ADR 0011), with real clients: who
 * gets in, what a device may see and say, and that the normal edge path still works.
 */
class SecuredBrokerTest {

    @TempDir
    Path state;

    private final Vertx vertx = Vertx.vertx();
    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret(CloudSide.SECRET, Clock.systemUTC());
    private final List<AutoCloseable> resources = new ArrayList<>();
    private Brokers.EmbeddedBroker broker;
    private CloudSide cloud;

    @BeforeEach
    void startBrokerAndCloud() throws Exception {
        broker = track(Brokers.EmbeddedBroker.startSecured(Brokers.freePort(), null,
                BrokerAccess.forSecret(topics, credentials, CloudSide.SECRET)));
        cloud = track(new CloudSide(vertx, broker.host(), broker.port(), topics, credentials,
                MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(CloudSide.SECRET))));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    @Test
    void shouldRefuseAnAnonymousClient() throws Exception {
        assertThat(refusal("anyone", null, null)).isNotNull();
    }

    @Test
    void shouldRefuseADeviceWithAWrongPassword() throws Exception {
        assertThat(refusal("gw-1", "gw-1", "not-the-token")).isNotNull();
        assertThat(refusal("gw-1", "gw-1", credentials.bootstrapToken("gw-2"))).isNotNull();
    }

    @Test
    void shouldRefuseTheOperatorNameWithAWrongPassword() throws Exception {
        assertThat(refusal("cloud-x", BrokerAccess.OPERATOR, "guess")).isNotNull();
    }

    @Test
    void shouldRefuseADeviceTakingAnotherDevicesClientId() throws Exception {
        assertThat(refusal("gw-2", "gw-1", credentials.bootstrapToken("gw-1"))).isNotNull();
    }

    @Test
    void shouldRefuseASubscriptionToAnotherDevicesTasks() throws Exception {
        MqttClient gw1 = connected("gw-1", "gw-1", credentials.bootstrapToken("gw-1"));

        List<Integer> granted = subscribe(gw1, topics.tasks("gw-2"), topics.tasks("gw-1"), topics.root() + "/devices/+/tasks");

        assertThat(granted).containsExactly(MqttQoS.FAILURE.value(), 1, MqttQoS.FAILURE.value());
    }

    @Test
    void shouldNotDeliverAResultOrHeartbeatADevicePublishesOnAnotherDevicesTopics() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        MqttClient observer = connected("observer-" + TestBrokers.freshId("c"), BrokerAccess.OPERATOR,
                DeviceCredentials.brokerPassword(CloudSide.SECRET));
        observer.publishHandler(m -> seen.add(m.topicName()));
        subscribe(observer, topics.root() + "/devices/#");
        MqttClient gw1 = connected("gw-1", "gw-1", credentials.bootstrapToken("gw-1"));

        publish(gw1, topics.results("gw-2"));
        publish(gw1, topics.heartbeat("gw-2"));
        publish(gw1, topics.tasks("gw-1")); // a device does not send tasks, not even to itself
        publish(gw1, topics.results("gw-1")); // sent last: once it arrives, the others would have too

        assertThat(Await.until(Duration.ofSeconds(10), () -> seen.contains(topics.results("gw-1")))).isTrue();
        assertThat(seen).containsExactly(topics.results("gw-1"));
    }

    @Test
    void shouldRefuseARevokedDeviceWhenItReconnects() throws Exception {
        String id = TestBrokers.freshId("gw");
        EdgeGateway gw = startGateway(id);
        assertThat(Await.until(Duration.ofSeconds(10), () -> gw.credential().isPresent())).isTrue();
        String credential = gw.credential().orElseThrow();
        gw.close();
        assertThat(refusal(id, id, credential)).as("before revocation").isNull();

        credentials.revokeDevice(id);

        assertThat(refusal(id, id, credential)).isNotNull();
        assertThat(refusal(id, id, credentials.bootstrapToken(id))).isNotNull();
    }

    @Test
    void shouldCutOffAConnectedDeviceWhenItIsRevoked() throws Exception {
        String id = TestBrokers.freshId("gw");
        EdgeGateway gw = startGateway(id);
        assertThat(Await.until(Duration.ofSeconds(10), () -> gw.credential().isPresent())).isTrue();
        String credential = gw.credential().orElseThrow();

        credentials.revokeDevice(id);
        int dropped = broker.disconnectDevices(credentials.revokedDevices()); // what the provider does every 2 s

        assertThat(dropped).isEqualTo(1);
        assertThat(Await.until(Duration.ofSeconds(10), () -> !gw.connected())).isTrue();
        assertThat(refusal(id, id, credential)).isNotNull();
    }

    @Test
    void shouldRegisterReportAndRunATaskWithAuthenticationOn() throws Exception {
        String id = TestBrokers.freshId("gw");
        EdgeGateway gw = startGateway(id);
        gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));

        assertThat(Await.until(Duration.ofSeconds(10), () -> gw.credential().isPresent())).isTrue();
        assertThat(Await.until(Duration.ofSeconds(10), () -> cloud.fleet.device(id)
                .map(d -> d.online() && d.heartbeat() != null && d.heartbeat().hasModel("ocr-cls@1")).orElse(false))).isTrue();
        ResultMessage r = cloud.dispatcher.send(id, new TaskMessage("t-1", "ocr-cls",
                Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(1, 1)), null, Instant.now().plusSeconds(60).toString(), null))
                .get(20, TimeUnit.SECONDS);

        assertThat(r.succeeded()).as(r.error()).isTrue();
        assertThat(r.output().shape()).containsExactly(1, 2);
    }

    @Test
    void shouldReconnectWithItsDeviceCredentialAfterARestart() throws Exception {
        String id = TestBrokers.freshId("gw");
        EdgeGateway first = startGateway(id);
        assertThat(Await.until(Duration.ofSeconds(10), () -> first.credential().isPresent())).isTrue();
        first.close();

        // no bootstrap token this time: only the kept credential can get it in
        GatewayConfig withoutToken = config(id).withBrokerPassword(null);
        withoutToken = new GatewayConfig(id, withoutToken.brokerHost(), withoutToken.brokerPort(), topics, withoutToken.stateDir(),
                null, withoutToken.heartbeatInterval(), withoutToken.keepAliveSeconds(), withoutToken.spoolLimits(), 16, false,
                List::of, withoutToken.dataDir(), withoutToken.durability(), null, null, null, null);
        EdgeGateway second = track(new EdgeGateway(withoutToken, vertx, Clock.systemUTC()));
        second.start().get(10, TimeUnit.SECONDS);

        assertThat(second.connected()).isTrue();
    }

    private GatewayConfig config(String id) {
        return GatewayConfig.of(id, broker.host(), broker.port(), state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics)
                .withHeartbeat(Duration.ofMillis(300), 5)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false))
                .withGpus(List::of);
    }

    private EdgeGateway startGateway(String id) throws Exception {
        EdgeGateway gw = track(new EdgeGateway(config(id), vertx, Clock.systemUTC()));
        gw.start().get(10, TimeUnit.SECONDS);
        return gw;
    }

    /** The broker's refusal code, or null when it let the client in. */
    private MqttConnectReturnCode refusal(String clientId, String username, String password) throws Exception {
        MqttClientOptions options = new MqttClientOptions().setClientId(clientId).setCleanSession(true);
        if (username != null) {
            options.setUsername(username).setPassword(password);
        }
        MqttClient client = MqttClient.create(vertx, options);
        try {
            var ack = client.connect(broker.port(), broker.host()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            client.disconnect().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            return ack.code() == MqttConnectReturnCode.CONNECTION_ACCEPTED ? null : ack.code();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof MqttConnectionException refused) {
                return refused.code();
            }
            throw e;
        }
    }

    private MqttClient connected(String clientId, String username, String password) throws Exception {
        MqttClient client = MqttClient.create(vertx, new MqttClientOptions().setClientId(clientId).setCleanSession(true)
                .setUsername(username).setPassword(password));
        client.connect(broker.port(), broker.host()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        track(() -> {
            if (client.isConnected()) {
                client.disconnect();
            }
        });
        return client;
    }

    private static List<Integer> subscribe(MqttClient client, String... filters) throws Exception {
        CompletableFuture<List<Integer>> granted = new CompletableFuture<>();
        client.subscribeCompletionHandler(ack -> granted.complete(ack.grantedQoSLevels()));
        java.util.Map<String, Integer> wanted = new java.util.LinkedHashMap<>();
        for (String f : filters) {
            wanted.put(f, 1);
        }
        client.subscribe(wanted);
        return granted.get(10, TimeUnit.SECONDS);
    }

    private static void publish(MqttClient client, String topic) throws Exception {
        client.publish(topic, Buffer.buffer("{}".getBytes(StandardCharsets.UTF_8)), MqttQoS.AT_LEAST_ONCE, false, false)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
