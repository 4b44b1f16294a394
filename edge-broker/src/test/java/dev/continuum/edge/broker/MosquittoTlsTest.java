package dev.continuum.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.continuum.edge.broker.testing.OwnMosquitto;
import dev.continuum.edge.broker.testing.TestCa;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's Mosquitto with the TLS listener docs/operations.md ("Encrypted links") gives — {@code cafile},
 * {@code certfile}, {@code keyfile} from a cert-manager Secret's files — on a free port of the test's own: the link
 * trusting the CA carries messages; a plain client is refused. Skipped where Mosquitto is not installed.
 */
class MosquittoTlsTest {

    @TempDir
    static Path dir;
    private static OwnMosquitto mosquitto;
    private static int port;
    private static TestCa.Secret secret;

    @BeforeAll
    static void startMosquitto() throws Exception {
        assumeTrue(OwnMosquitto.installed(), "needs Debian's mosquitto (apt-get install mosquitto)");
        secret = TestCa.create("continuum-test-ca").issue(dir.resolve("mosquitto-tls"), "mosquitto.continuum.svc");
        mosquitto = OwnMosquitto.start(dir, """
                cafile %s
                certfile %s
                keyfile %s
                allow_anonymous true
                """.formatted(secret.caCrt(), secret.tlsCrt(), secret.tlsKey()));
        port = mosquitto.port();
    }

    @AfterAll
    static void stopMosquitto() throws Exception {
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    @Test
    void shouldCarryAMessageOverMosquittosTlsListenerWhenTheLinkTrustsTheCa() throws Exception {
        MqttLink.Tls tls = MqttLink.Tls.trusting(secret.caCrt().toString(), true, MqttLink.Tls.CA_FILE_ENV);
        String address = "mqtts://127.0.0.1:" + port;
        try (MqttLink reader = MqttLink.standalone(MqttLink.Options.persistent(address, "tls-reader", tls));
             MqttLink writer = MqttLink.standalone(MqttLink.Options.persistent(address, "tls-writer", tls))) {
            CompletableFuture<String> received = new CompletableFuture<>();
            reader.subscribe("tls-test/hello", 1, m -> {
                received.complete(new String(m.payload(), StandardCharsets.UTF_8));
                m.ack();
            });
            reader.start().get(10, TimeUnit.SECONDS);
            reader.whenConnected().get(10, TimeUnit.SECONDS);
            writer.start().get(10, TimeUnit.SECONDS);

            writer.publish("tls-test/hello", "over TLS".getBytes(StandardCharsets.UTF_8), false).get(10, TimeUnit.SECONDS);

            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo("over TLS");
        }
    }

    @Test
    void shouldRefuseAPlainClientOnMosquittosTlsListener() throws Exception {
        try (MqttLink plain = MqttLink.standalone(MqttLink.Options.persistent("127.0.0.1:" + port, "plain-client", null))) {
            CompletableFuture<Void> up = plain.start();

            // several connect attempts (backoff from 200 ms), none of them let in
            await("the plain client stays out").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(100)).until(() -> !up.isDone() && !plain.connected());
        }
    }
}
