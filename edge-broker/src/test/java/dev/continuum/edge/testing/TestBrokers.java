package dev.continuum.edge.testing;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.Topics;
import java.util.UUID;

/**
 * The broker the tests use: the machine's Mosquitto on 127.0.0.1:1883 when it answers, else one
 * embedded Moquette for the whole test JVM. Each test gets its own topic root, so tests (and other
 * users of a shared Mosquitto) never see each other's messages. A stock Mosquitto leaves Nagle on
 * ({@code set_tcp_nodelay false}): every exchange through it takes ~40 ms more than through the embedded
 * broker, which is what {@code up} runs — time figures name the broker they were measured on.
 */
public final class TestBrokers {

    private static Brokers.Broker shared;

    private TestBrokers() {}

    public static synchronized Brokers.Broker shared() {
        if (shared == null) {
            // -Dcontinuum.test.broker=embedded checks the path a machine without Mosquitto takes
            // -Dcontinuum.test.broker=127.0.0.1:18830 points at another broker (e.g. a tuned Mosquitto)
            String choice = System.getProperty("continuum.test.broker", "");
            if (choice.equals("embedded")) {
                shared = Brokers.EmbeddedBroker.start(Brokers.freePort(), null);
            } else if (choice.contains(":")) {
                shared = Brokers.machineOrEmbedded(choice.substring(0, choice.lastIndexOf(':')),
                        Integer.parseInt(choice.substring(choice.lastIndexOf(':') + 1)));
            } else {
                shared = Brokers.machineOrEmbedded("127.0.0.1", 1883);
            }
            System.out.println("[test broker] " + (shared.embedded() ? "embedded Moquette" : "machine broker")
                    + " at " + shared.host() + ":" + shared.port());
        }
        return shared;
    }

    public static Topics freshTopics() {
        return new Topics("continuum-test-" + UUID.randomUUID().toString().substring(0, 8));
    }

    public static String freshId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
