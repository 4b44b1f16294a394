package dev.continuum.edge.broker.testing;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.Topics;
import java.util.UUID;

/**
 * The broker the tests use: by default one embedded Moquette per test JVM — the broker {@code up} runs and the only
 * one a bare machine has. {@code -Dcontinuum.test.broker=127.0.0.1:1883} runs the tests against another broker (the
 * machine's Mosquitto, for interoperability); it must answer, there is no silent fallback. Each test gets its own topic
 * root, so tests (and other users of a shared Mosquitto) never see each other's messages. A stock Mosquitto leaves
 * Nagle on ({@code set_tcp_nodelay false}): every exchange through it takes ~40 ms more than through the embedded
 * broker — time figures name the broker they were measured on.
 *
 * <p>One broker for the whole JVM, not one per class loader: a Quarkus test profile and the test class it configures
 * are loaded by different class loaders, each with its own statics, and two embedded brokers would leave the service
 * under test and the test's gateways talking past each other. The first to start it writes its address to a system
 * property; every later caller, in whatever class loader, uses that address.
 */
public final class TestBrokers {

    /** The test broker chosen by the user: {@code host:port}, or {@code embedded} (the default). */
    public static final String CHOICE = "continuum.test.broker";
    /** Where the JVM's test broker listens, written once by the class loader that started or chose it. */
    private static final String ADDRESS = "continuum.test.broker.address";

    private static Brokers.Broker shared;

    private TestBrokers() {}

    public static synchronized Brokers.Broker shared() {
        if (shared == null) {
            // the system properties are one object across class loaders: the lock that makes "first one starts it" hold
            synchronized (System.getProperties()) {
                String known = System.getProperty(ADDRESS);
                shared = known != null ? Known.parse(known) : choose();
                System.setProperty(ADDRESS, Known.format(shared));
            }
        }
        return shared;
    }

    private static Brokers.Broker choose() {
        String choice = System.getProperty(CHOICE, "embedded").trim();
        Brokers.Broker broker;
        if (choice.isEmpty() || choice.equals("embedded")) {
            broker = Brokers.EmbeddedBroker.start(Brokers.freePort(), null);
        } else {
            int colon = choice.lastIndexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException("-D" + CHOICE + " must be 'embedded' or host:port, not '" + choice + "'");
            }
            String host = choice.substring(0, colon);
            int port = Integer.parseInt(choice.substring(colon + 1));
            if (!Brokers.answers(host, port)) {
                throw new IllegalStateException("-D" + CHOICE + "=" + choice + " names a broker that does not answer;"
                        + " start it, or leave the property out to use the embedded broker");
            }
            broker = new Known(host, port, false);
        }
        System.out.println("[test broker] " + (broker.embedded() ? "embedded Moquette" : "chosen broker")
                + " at " + broker.host() + ":" + broker.port());
        return broker;
    }

    /** A broker another class loader started or chose: used, never stopped from here. */
    private record Known(String host, int port, boolean embedded) implements Brokers.Broker {
        static Known parse(String text) {
            String[] parts = text.split(":");
            return new Known(parts[0], Integer.parseInt(parts[1]), Boolean.parseBoolean(parts[2]));
        }

        static String format(Brokers.Broker b) {
            return b.host() + ":" + b.port() + ":" + b.embedded();
        }

        @Override public void close() {}
    }

    public static Topics freshTopics() {
        return new Topics("continuum-test-" + UUID.randomUUID().toString().substring(0, 8));
    }

    public static String freshId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
