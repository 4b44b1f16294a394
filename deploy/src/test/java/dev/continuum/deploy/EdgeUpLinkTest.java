package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code up}'s own broker stays plain MQTT on loopback by default (issue 33: TLS is for brokers on a network). */
class EdgeUpLinkTest {

    @Test
    void shouldKeepUpsEmbeddedBrokerPlainOnLoopbackByDefault() {
        EdgeUp.Link link = EdgeUp.embedded(18830, "continuum-x", Map.of("CONTINUUM_MQTT_USERNAME", "_continuum",
                "CONTINUUM_MQTT_PASSWORD", "p"), "secret-0123456789");

        assertThat(link.broker()).isEqualTo("127.0.0.1:18830").doesNotStartWith("mqtts://");
        assertThat(link.embedded()).isTrue();
        assertThat(link.engineEnv()).containsEntry("CONTINUUM_EDGE_BROKER", "127.0.0.1:18830")
                .doesNotContainKeys("CONTINUUM_EDGE_CA_FILE", "CONTINUUM_TLS_CA_FILE");
    }
}
