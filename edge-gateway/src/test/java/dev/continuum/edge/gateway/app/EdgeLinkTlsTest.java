package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.PemKeyPair;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.broker.testing.TestCa;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway and the cloud on the embedded broker listening with TLS only (issue 33), logins and ACLs on as {@code up}
 * runs them: the gateway registers with its bootstrap token, gets its device credential and is seen online, all over
 * TLS; a gateway configured for plain MQTT never gets in.
 */
class EdgeLinkTlsTest {

    @TempDir
    Path dir;

    private final Vertx vertx = Vertx.vertx();
    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret(CloudSide.SECRET, Clock.systemUTC());
    private Brokers.EmbeddedBroker broker;
    private CloudSide cloud;
    private EdgeGateway gateway;

    @AfterEach
    void closeAll() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (cloud != null) {
            cloud.close();
        }
        if (broker != null) {
            broker.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shouldRegisterAGatewayAndSeeItOnlineOverTlsWithItsDeviceCredential() throws Exception {
        MqttLink.Tls tls = startTlsBrokerAndCloud();
        String id = TestBrokers.freshId("gw");

        gateway = new EdgeGateway(config(id).withBrokerTls(tls), vertx, Clock.systemUTC());
        gateway.start().get(20, TimeUnit.SECONDS);

        assertThat(Await.until(Duration.ofSeconds(15), () -> gateway.credential().isPresent())).isTrue();
        assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet.device(id)
                .map(d -> d.online() && d.heartbeat() != null).orElse(false))).isTrue();
    }

    @Test
    void shouldNeverConnectAGatewayConfiguredForPlainMqttToATlsOnlyBroker() throws Exception {
        startTlsBrokerAndCloud();
        String id = TestBrokers.freshId("gw");

        gateway = new EdgeGateway(config(id), vertx, Clock.systemUTC());
        gateway.start();

        assertThat(Await.until(Duration.ofSeconds(3), () -> gateway.connected())).isFalse();
        assertThat(cloud.fleet.device(id)).isEmpty();
    }

    private MqttLink.Tls startTlsBrokerAndCloud() throws Exception {
        TestCa.Secret secret = TestCa.create("continuum-test-ca").issue(dir.resolve("broker-tls"), "localhost");
        broker = Brokers.EmbeddedBroker.startSecured(
                new Brokers.Listener("127.0.0.1", PemKeyPair.of(secret.tlsCrt(), secret.tlsKey(), "cert", "key")),
                Brokers.freePort(), null, BrokerAccess.forSecret(topics, credentials, CloudSide.SECRET));
        MqttLink.Tls tls = MqttLink.Tls.trusting(secret.caCrt().toString(), true, MqttLink.Tls.CA_FILE_ENV);
        cloud = new CloudSide(vertx, broker.host(), broker.port(), topics, credentials,
                MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(CloudSide.SECRET)), tls);
        return tls;
    }

    private GatewayConfig config(String id) {
        return GatewayConfig.of(id, broker.host(), broker.port(), dir.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics)
                .withHeartbeat(Duration.ofMillis(300), 5)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false))
                .withGpus(List::of);
    }
}
