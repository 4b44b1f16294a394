package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inference provider's broker settings (issue 33): plain on loopback as {@code up} starts it, TLS only when asked. */
class InferenceBrokerSettingsTest {

    @TempDir
    Path dir;

    @Test
    void shouldRunTheEmbeddedBrokerPlainOnLoopbackAsUpStartsIt() {
        InferenceProviderMain.Settings s = InferenceProviderMain.parse(new String[] {"--embedded-broker", "--broker", "127.0.0.1:18830"});

        assertThat(s.brokerLink().tls()).isNull();
        assertThat(s.brokerServerTls()).isNull();
        assertThat(s.brokerListenHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void shouldListenWithTlsOnlyWhenTheBrokerAddressIsMqttsAndACertificateAndKeyAreGiven() throws Exception {
        Path cert = Files.writeString(dir.resolve("tls.crt"), "x");
        Path key = Files.writeString(dir.resolve("tls.key"), "x");

        InferenceProviderMain.Settings s = InferenceProviderMain.parse(new String[] {"--embedded-broker", "--broker",
                "mqtts://127.0.0.1:18883", "--broker-tls-cert", cert.toString(), "--broker-tls-key", key.toString(),
                "--broker-ca", cert.toString()});

        assertThat(s.brokerLink().tls()).isNotNull();
        assertThat(s.brokerServerTls().certFile()).isEqualTo(cert);
    }

    @Test
    void shouldRefuseAnEmbeddedTlsBrokerWithoutItsCertificateOrWithAPlainAddress() throws Exception {
        Path cert = Files.writeString(dir.resolve("tls.crt"), "x");

        assertThatThrownBy(() -> InferenceProviderMain.parse(new String[] {"--embedded-broker", "--broker", "mqtts://127.0.0.1:18883"}))
                .hasMessageContaining("--broker-tls-cert");
        assertThatThrownBy(() -> InferenceProviderMain.parse(new String[] {"--embedded-broker", "--broker", "127.0.0.1:18883",
                "--broker-tls-cert", cert.toString(), "--broker-tls-key", cert.toString()}))
                .hasMessageContaining("mqtts://127.0.0.1:18883");
        assertThatThrownBy(() -> InferenceProviderMain.parse(new String[] {"--embedded-broker", "--broker", "mqtts://127.0.0.1:18883",
                "--broker-tls-cert", cert.toString(), "--broker-tls-key", dir.resolve("none.key").toString()}))
                .hasMessageContaining("--broker-tls-key").hasMessageContaining("none.key");
    }
}
