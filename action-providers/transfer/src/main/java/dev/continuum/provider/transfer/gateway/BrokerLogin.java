package dev.continuum.provider.transfer.gateway;

import java.util.Map;
import java.util.Objects;

/**
 * MQTT user name and password of a gateway storage connection. A broker Continuum starts requires
 * one (docs/edge.md, ADR 0011): the cloud half logs in as the operator, the device half as its device
 * id with its bootstrap token. The password is never logged.
 */
public record BrokerLogin(String username, String password) {

    public BrokerLogin {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    /** {@code CONTINUUM_MQTT_USERNAME} and {@code CONTINUUM_MQTT_PASSWORD} when both are set, else null (anonymous). */
    public static BrokerLogin fromEnvironment(Map<String, String> env) {
        String user = env.get("CONTINUUM_MQTT_USERNAME");
        String password = env.get("CONTINUUM_MQTT_PASSWORD");
        return user != null && !user.isBlank() && password != null ? new BrokerLogin(user, password) : null;
    }

    @Override
    public String toString() {
        return "BrokerLogin[" + username + "]";
    }
}
