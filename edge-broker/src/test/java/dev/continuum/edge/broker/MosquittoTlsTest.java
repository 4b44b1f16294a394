package dev.continuum.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.continuum.edge.broker.testing.TestCa;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private static Process mosquitto;
    private static int port;
    private static TestCa.Secret secret;

    @BeforeAll
    static void startMosquitto() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/mosquitto")), "needs Debian's mosquitto (apt-get install mosquitto)");
        secret = TestCa.create("continuum-test-ca").issue(dir.resolve("mosquitto-tls"), "mosquitto.continuum.svc");
        port = Brokers.freePort();
        // "user": started as root, Mosquitto would switch to user mosquitto, who cannot read the test's private files
        Path conf = Files.writeString(dir.resolve("mosquitto.conf"), """
                listener %d 127.0.0.1
                cafile %s
                certfile %s
                keyfile %s
                allow_anonymous true
                persistence false
                user %s
                """.formatted(port, secret.caCrt(), secret.tlsCrt(), secret.tlsKey(), System.getProperty("user.name")));
        mosquitto = new ProcessBuilder("/usr/sbin/mosquitto", "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("mosquitto.log").toFile()).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Brokers.answers("127.0.0.1", port) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(Brokers.answers("127.0.0.1", port)).as("mosquitto started (" + dir.resolve("mosquitto.log") + ")").isTrue();
    }

    @AfterAll
    static void stopMosquitto() throws Exception {
        if (mosquitto != null) {
            mosquitto.destroy();
            mosquitto.waitFor(10, TimeUnit.SECONDS);
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

            Thread.sleep(2000); // several connect attempts (backoff from 200 ms)
            assertThat(up).isNotDone();
            assertThat(plain.connected()).isFalse();
        }
    }
}
