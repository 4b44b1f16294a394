package dev.continuum.edge.protocol.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerAddressTest {

    @Test
    void shouldReadPlainAndTlsAddresses() {
        assertThat(BrokerAddress.parse("127.0.0.1:1883")).isEqualTo(new BrokerAddress("127.0.0.1", 1883, false));
        assertThat(BrokerAddress.parse("mqtt://broker:1883")).isEqualTo(new BrokerAddress("broker", 1883, false));
        assertThat(BrokerAddress.parse("mqtts://mosquitto.continuum.svc:8883"))
                .isEqualTo(new BrokerAddress("mosquitto.continuum.svc", 8883, true));
        assertThat(BrokerAddress.parse("mqtts://[::1]:8883")).isEqualTo(new BrokerAddress("::1", 8883, true));
        assertThat(BrokerAddress.parse("mqtts://[::1]:8883").toString()).isEqualTo("mqtts://[::1]:8883");
    }

    @Test
    void shouldSayWhatABrokerAddressLooksLikeWhenItIsNotOne() {
        assertThatThrownBy(() -> BrokerAddress.parse("broker")).hasMessageContaining("host:port or mqtts://host:port");
        assertThatThrownBy(() -> BrokerAddress.parse("ws://broker:80")).hasMessageContaining("mqtt:// and mqtts://");
        assertThatThrownBy(() -> BrokerAddress.parse("broker:x")).hasMessageContaining("port must be a number");
    }

    @Test
    void shouldConnectWithTlsOnlyWhenTheAddressSaysMqtts() {
        assertThat(MqttLink.Options.persistent("broker:1883", "c", null).tls()).isNull();
        MqttLink.Options tls = MqttLink.Options.persistent("mqtts://broker:8883", "c", null);
        assertThat(tls.tls()).isEqualTo(MqttLink.Tls.systemTrust());
        assertThat(tls.address()).isEqualTo("mqtts://broker:8883");
    }

    @Test
    void shouldCheckTheServerNameUnlessTheEnvironmentTurnsItOff() {
        assertThat(MqttLink.Tls.fromEnvironment(Map.of()).checkServerName()).isTrue();
        assertThat(MqttLink.Tls.fromEnvironment(Map.of(MqttLink.Tls.CHECK_SERVER_NAME_ENV, "false")).checkServerName()).isFalse();
    }
}
