package dev.continuum.provider.transfer.testing;

import dev.continuum.edge.broker.Brokers;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Properties;
import java.util.UUID;

/**
 * The MQTT broker of the gateway storage tests: the machine's Mosquitto at 127.0.0.1:1883 when it
 * answers (or {@code -Dcontinuum.test.broker=host:port}), else one embedded Moquette per test JVM
 * ({@code -Dcontinuum.test.broker=embedded} forces it). Tests use fresh topic roots and device ids.
 */
public final class TestBroker {

    public record Address(String host, int port) {}

    private static Address shared;

    private TestBroker() {}

    public static synchronized Address shared() {
        if (shared == null) {
            String choice = System.getProperty("continuum.test.broker", "127.0.0.1:1883");
            if (!choice.equals("embedded")) {
                String host = choice.substring(0, choice.lastIndexOf(':'));
                int port = Integer.parseInt(choice.substring(choice.lastIndexOf(':') + 1));
                if (answers(host, port)) {
                    shared = new Address(host, port);
                }
            }
            if (shared == null) {
                shared = new Address("127.0.0.1", embedded());
            }
            System.out.println("[test broker] " + shared.host() + ":" + shared.port());
        }
        return shared;
    }

    public static String freshRoot() {
        return "continuum-test-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** True when something accepts TCP connections at host:port within 300 ms. */
    public static boolean answers(String host, int port) {
        return Brokers.answers(host, port);
    }

    private static int embedded() {
        try (ServerSocket probe = new ServerSocket(0)) {
            int port = probe.getLocalPort();
            probe.close();
            Properties p = new Properties();
            p.setProperty("host", "127.0.0.1");
            p.setProperty("port", Integer.toString(port));
            p.setProperty("allow_anonymous", "true");
            p.setProperty("telemetry_enabled", "false");
            p.setProperty("persistence_enabled", "false");
            p.setProperty("netty.mqtt.message_size", Integer.toString(64 * 1024 * 1024));
            new Server().startServer(new MemoryConfig(p));
            return port;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start an embedded MQTT broker", e);
        }
    }
}
