package dev.continuum.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.continuum.edge.broker.testing.TestCa;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded broker listening with TLS only, from a certificate and key in cert-manager's files, with real
 * clients (issue 33): a client trusting the CA gets in with its device login as before; a plain client, a client
 * trusting another CA and a client reaching the broker under a name its certificate does not carry are refused,
 * and the link's log says why.
 */
class BrokerTlsTest {

    private static final String SECRET = "broker-tls-test-secret-0123456789";

    @TempDir
    static Path dir;
    /** One CA and one broker certificate for the class (RSA keys take a while on a loaded machine). */
    private static TestCa.Secret secret;

    private final Topics topics = new Topics("tls-test");
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret(SECRET, Clock.systemUTC());
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Logger linkLog = Logger.getLogger(MqttLink.class.getName());
    private final Handler capture = new Handler() {
        @Override public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                warnings.add(r.getMessage());
            }
        }
        @Override public void flush() {}
        @Override public void close() {}
    };
    private Brokers.EmbeddedBroker broker;

    @BeforeAll
    static void makeCertificates() {
        // a certificate naming the broker's Service, not "localhost": the name check has something to refuse
        secret = TestCa.create("continuum-test-ca").issue(dir.resolve("mosquitto-tls"), "mosquitto.continuum.svc");
    }

    @BeforeEach
    void startTlsBroker() {
        linkLog.addHandler(capture);
        broker = Brokers.EmbeddedBroker.startSecured(
                new Brokers.Listener("127.0.0.1", PemKeyPair.of(secret.tlsCrt(), secret.tlsKey(), "--tls-cert", "--tls-key")),
                Brokers.freePort(), null, BrokerAccess.forSecret(topics, credentials, SECRET));
    }

    @AfterEach
    void stop() {
        linkLog.removeHandler(capture);
        broker.close();
    }

    @Test
    void shouldCarryAMessageBetweenDeviceAndOperatorOverTlsWhenBothTrustTheCa() throws Exception {
        MqttLink.Tls tls = MqttLink.Tls.trusting(secret.caCrt().toString(), true, MqttLink.Tls.CA_FILE_ENV);
        try (MqttLink operator = MqttLink.standalone(MqttLink.Options.persistent(broker.address(), "cloud", tls)
                     .withLogin(MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(SECRET))));
             MqttLink device = MqttLink.standalone(MqttLink.Options.persistent(broker.address(), "gw-1", tls)
                     .withLogin(MqttLink.Login.of("gw-1", credentials.bootstrapToken("gw-1"))))) {
            CompletableFuture<String> received = new CompletableFuture<>();
            operator.subscribe(topics.root() + "/register/+", 1, m -> {
                received.complete(new String(m.payload(), StandardCharsets.UTF_8));
                m.ack();
            });
            operator.start().get(10, TimeUnit.SECONDS);
            operator.whenConnected().get(10, TimeUnit.SECONDS);
            device.start().get(10, TimeUnit.SECONDS);

            device.publish(topics.root() + "/register/gw-1", "hello over TLS".getBytes(StandardCharsets.UTF_8), false)
                    .get(10, TimeUnit.SECONDS);

            assertThat(broker.address()).startsWith("mqtts://127.0.0.1:");
            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo("hello over TLS");
        }
    }

    @Test
    void shouldStillRefuseADeviceWithAWrongPasswordOverTls() throws Exception {
        MqttLink.Tls tls = MqttLink.Tls.trusting(secret.caCrt().toString(), true, MqttLink.Tls.CA_FILE_ENV);
        CompletableFuture<Void> refused = new CompletableFuture<>();
        try (MqttLink device = MqttLink.standalone(MqttLink.Options.persistent(broker.address(), "gw-1", tls)
                .withLogin(MqttLink.Login.of("gw-1", "not-the-token")))) {
            device.onConnection(new MqttLink.ConnectionListener() {
                @Override public void connected(boolean sessionPresent) {}
                @Override public void refused() {
                    refused.complete(null);
                }
            });
            device.start();

            refused.get(10, TimeUnit.SECONDS);
            assertThat(device.connected()).isFalse();
        }
    }

    @Test
    void shouldRefuseAPlainConnectionAndSayTheBrokerMayRequireTls() throws Exception {
        String plain = "127.0.0.1:" + broker.port();
        try (MqttLink device = MqttLink.standalone(MqttLink.Options.persistent(plain, "gw-1", null)
                .withLogin(MqttLink.Login.of("gw-1", credentials.bootstrapToken("gw-1"))))) {
            CompletableFuture<Void> up = device.start();

            awaitWarning("may require TLS");
            assertThat(up).isNotDone();
            assertThat(warnings).anySatisfy(w -> assertThat(w)
                    .contains("MQTT connect to 127.0.0.1:" + broker.port() + " failed")
                    .contains("write mqtts://127.0.0.1:" + broker.port())
                    .doesNotContain(credentials.bootstrapToken("gw-1")));
        }
    }

    @Test
    void shouldRefuseTheBrokerWhenItsCertificateIsNotSignedByTheTrustedCa() throws Exception {
        Path otherCa = TestCa.create("someone-else").writeCertificate(dir.resolve("other-ca.crt"));
        MqttLink.Tls tls = MqttLink.Tls.trusting(otherCa.toString(), true, "--broker-ca");
        try (MqttLink device = MqttLink.standalone(MqttLink.Options.persistent(broker.address(), "gw-1", tls)
                .withLogin(MqttLink.Login.of("gw-1", credentials.bootstrapToken("gw-1"))))) {
            CompletableFuture<Void> up = device.start();

            awaitWarning("TLS handshake failed");
            assertThat(up).isNotDone();
            assertThat(warnings).anySatisfy(w -> assertThat(w).contains(otherCa.toString()).contains("--broker-ca"));
        }
    }

    @Test
    void shouldRefuseTheBrokerUnderANameItsCertificateDoesNotCarryUnlessTheNameCheckIsOff() throws Exception {
        String byName = "mqtts://localhost:" + broker.port();
        MqttLink.Tls checked = MqttLink.Tls.trusting(secret.caCrt().toString(), true, MqttLink.Tls.CA_FILE_ENV);
        MqttLink.Tls unchecked = MqttLink.Tls.trusting(secret.caCrt().toString(), false, MqttLink.Tls.CA_FILE_ENV);
        MqttLink.Login login = MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(SECRET));
        try (MqttLink strict = MqttLink.standalone(MqttLink.Options.persistent(byName, "cloud-a", checked).withLogin(login));
             MqttLink lax = MqttLink.standalone(MqttLink.Options.persistent(byName, "cloud-b", unchecked).withLogin(login))) {
            CompletableFuture<Void> strictUp = strict.start();

            lax.start().get(10, TimeUnit.SECONDS);
            awaitWarning("and name localhost");
            assertThat(strictUp).isNotDone();
        }
    }

    @Test
    void shouldNameTheSettingWhenTheCaFileIsMissingOrTheAddressIsPlain() {
        assertThatThrownBy(() -> MqttLink.Tls.trusting(dir.resolve("nope.crt").toString(), true, "CONTINUUM_MQTT_CA_FILE"))
                .hasMessageContaining("CONTINUUM_MQTT_CA_FILE").hasMessageContaining("nope.crt").hasMessageContaining("not found");
        MqttLink.Tls tls = MqttLink.Tls.trusting(secret.caCrt().toString(), true, "--broker-ca");
        assertThatThrownBy(() -> MqttLink.Options.persistent("broker:1883", "gw-1", tls))
                .hasMessageContaining("--broker-ca").hasMessageContaining("mqtts://broker:1883");
        assertThatThrownBy(() -> PemKeyPair.of(secret.tlsCrt(), dir.resolve("missing.key"), "--tls-cert", "--tls-key"))
                .hasMessageContaining("--tls-key").hasMessageContaining("missing.key");
    }

    private void awaitWarning(String text) {
        await("a link warning saying '" + text + "'").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(warnings).as("the link's warnings").anyMatch(w -> w.contains(text)));
    }
}
