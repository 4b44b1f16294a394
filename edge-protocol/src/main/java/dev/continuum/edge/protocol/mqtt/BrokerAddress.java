package dev.continuum.edge.protocol.mqtt;

import java.util.Objects;

/**
 * Where a broker listens, as every broker setting writes it: {@code host:port} or {@code mqtt://host:port} for plain
 * MQTT, {@code mqtts://host:port} for MQTT over TLS (trusting the CA that {@link MqttLink.Tls} names). IPv6 hosts
 * in brackets ({@code mqtts://[::1]:8883}).
 */
public record BrokerAddress(String host, int port, boolean tls) {

    public BrokerAddress {
        Objects.requireNonNull(host, "host");
    }

    /** Reads {@code address}; {@link IllegalArgumentException} says what a broker address looks like otherwise. */
    public static BrokerAddress parse(String address) {
        Objects.requireNonNull(address, "address");
        String rest = address.trim();
        boolean tls = false;
        if (rest.startsWith("mqtts://")) {
            tls = true;
            rest = rest.substring("mqtts://".length());
        } else if (rest.startsWith("mqtt://")) {
            rest = rest.substring("mqtt://".length());
        } else if (rest.contains("://")) {
            throw new IllegalArgumentException("broker " + address + ": only mqtt:// and mqtts:// are understood");
        }
        rest = rest.replaceAll("/+$", "");
        int colon = rest.lastIndexOf(':');
        if (colon < 1 || colon == rest.length() - 1) {
            throw new IllegalArgumentException("broker must be host:port or mqtts://host:port, not " + address);
        }
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("broker " + address + ": the port must be a number");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("broker " + address + ": the port must be from 1 to 65535");
        }
        return new BrokerAddress(host, port, tls);
    }

    @Override
    public String toString() {
        return (tls ? "mqtts://" : "") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
