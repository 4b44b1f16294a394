package dev.continuum.engine.support;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.mqtt.MqttClient;
import io.vertx.mqtt.MqttClientOptions;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The engine's view of the test broker ({@link TestBrokers}: embedded Moquette unless {@code -Dtest.broker}
 * names another), the settings that point the engine's trigger channel at it, and a QoS 1 publisher, as an instrument
 * would publish.
 */
public final class MqttBroker {

    private MqttBroker() {}

    public record Address(String host, int port, boolean embedded) {}

    /** The test JVM's one broker ({@link TestBrokers#shared()}: embedded unless -Dtest.broker names another). */
    public static Address address() {
        Brokers.Broker broker = TestBrokers.shared();
        return new Address(broker.host(), broker.port(), broker.embedded());
    }

    /** The engine setting that names the trigger channel's client id, i.e. its persistent session at the broker. */
    public static final String CLIENT_ID = "mp.messaging.incoming.trigger-mqtt.client-id";

    /**
     * The engine settings that switch its MQTT trigger channel on against this broker, with a client id of its own
     * (a persistent session, as in production: remove it with {@link #removeSession} when done).
     */
    public static java.util.Map<String, String> engineSettings(Address broker) {
        return java.util.Map.of(
                "mp.messaging.incoming.trigger-mqtt.enabled", "true",
                "mp.messaging.incoming.trigger-mqtt.host", broker.host(),
                "mp.messaging.incoming.trigger-mqtt.port", String.valueOf(broker.port()),
                CLIENT_ID, "continuum-test-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * Ends the persistent session the broker keeps for this client id, with what it queued: a connect with clean
     * session on discards it (MQTT 3.1.1 §3.1.2.4). Tests call it so that no session of theirs stays on a shared broker,
     * collecting messages for a client that never comes back.
     */
    public static void removeSession(Address broker, String clientId) {
        Vertx vertx = Vertx.vertx();
        try {
            MqttClient client = MqttClient.create(vertx, new MqttClientOptions().setClientId(clientId).setCleanSession(true));
            Publisher.await(client.connect(broker.port(), broker.host()).toCompletionStage());
            Publisher.await(client.disconnect().toCompletionStage());
        } finally {
            vertx.close();
        }
    }

    /** A publisher connected with QoS 1: each publish returns once the broker has the message (PUBACK). */
    public static final class Publisher implements AutoCloseable {
        private final Vertx vertx = Vertx.vertx();
        private final MqttClient client;

        public Publisher(Address broker) {
            client = MqttClient.create(vertx, new MqttClientOptions().setClientId("continuum-test-pub-" + UUID.randomUUID())
                    .setMaxInflightQueue(1000).setAutoKeepAlive(true));
            await(client.connect(broker.port(), broker.host()).toCompletionStage());
        }

        public void publish(String topic, String payload) {
            await(client.publish(topic, Buffer.buffer(payload), MqttQoS.AT_LEAST_ONCE, false, false).toCompletionStage());
        }

        /** Publishes without waiting for the broker's PUBACK (a burst); call {@link #close()} to wait for all. */
        public java.util.concurrent.CompletionStage<Integer> publishAsync(String topic, String payload) {
            return client.publish(topic, Buffer.buffer(payload), MqttQoS.AT_LEAST_ONCE, false, false).toCompletionStage();
        }

        @Override
        public void close() {
            try {
                await(client.disconnect().toCompletionStage());
            } finally {
                vertx.close();
            }
        }

        private static <T> T await(java.util.concurrent.CompletionStage<T> stage) {
            try {
                return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("MQTT: " + e.getMessage(), e);
            }
        }
    }
}
