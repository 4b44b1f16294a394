package dev.continuum.engine.support;

import io.vertx.amqp.AmqpClient;
import io.vertx.amqp.AmqpClientOptions;
import io.vertx.amqp.AmqpConnection;
import io.vertx.amqp.AmqpMessage;
import io.vertx.amqp.AmqpSender;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.awaitility.Awaitility;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The machine's RabbitMQ with its AMQP 1.0 plugin (rabbitmq_amqp1_0), for the AMQP trigger source. Where it is:
 * CONTINUUM_RABBITMQ=host:port, default 127.0.0.1:5672, user guest/guest (RabbitMQ's loopback-only default).
 * A test without it skips saying why, unless CONTINUUM_REQUIRE_RABBITMQ=1 (CI) makes that a failure.
 */
public final class RabbitMq {

    public record Address(String host, int port) {}

    /** One queue per test JVM, so tests never read another run's leftovers. */
    public static final String QUEUE = "continuum-triggers-test-" + UUID.randomUUID().toString().substring(0, 8);

    private RabbitMq() {
    }

    public static Address address() {
        String configured = Optional.ofNullable(System.getenv("CONTINUUM_RABBITMQ")).orElse("127.0.0.1:5672");
        int colon = configured.lastIndexOf(':');
        return new Address(configured.substring(0, colon), Integer.parseInt(configured.substring(colon + 1)));
    }

    public static boolean required() {
        return "1".equals(System.getenv("CONTINUUM_REQUIRE_RABBITMQ"));
    }

    /** Why AMQP 1.0 on RabbitMQ cannot be used here, or empty when it can. */
    public static Optional<String> unavailable() {
        Address address = address();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), 1000);
        } catch (IOException e) {
            return Optional.of("no RabbitMQ answers at " + address.host() + ":" + address.port() + " (" + e.getMessage()
                    + "); start it with `rabbitmq-server -detached`");
        }
        Vertx vertx = Vertx.vertx();
        try {
            await(AmqpClient.create(vertx, options(address)).connect().compose(AmqpConnection::close).toCompletionStage());
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("RabbitMQ at " + address.host() + ":" + address.port() + " does not speak AMQP 1.0 ("
                    + e.getMessage() + "); enable the plugin: `rabbitmq-plugins enable rabbitmq_amqp1_0`");
        } finally {
            vertx.close();
        }
    }

    private static AmqpClientOptions options(Address broker) {
        return new AmqpClientOptions().setHost(broker.host()).setPort(broker.port()).setUsername("guest").setPassword("guest")
                .setConnectTimeout(2000);
    }

    /** Removes the test queue (it is durable, so it would outlive the test). */
    public static void deleteQueue() {
        try {
            new ProcessBuilder("rabbitmqctl", "-q", "delete_queue", QUEUE).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            // left behind: harmless, and named for this test JVM
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The engine's AMQP trigger channel on, reading the test queue (the settings docs/operations.md gives): the
     * engine's receiver attaches to {@code /queue/<name>}, so RabbitMQ declares the queue durable as the channel's
     * {@code durable=true} asks. Senders use {@code /amq/queue/<name>}, which needs the queue to exist and declares
     * nothing (a sender on {@code /queue/<name>} would declare it non-durable, and RabbitMQ closes the connection on
     * that mismatch).
     */
    public static Map<String, String> engineSettings(Address broker) {
        return Map.of(
                "mp.messaging.incoming.trigger-amqp.enabled", "true",
                "mp.messaging.incoming.trigger-amqp.host", broker.host(),
                "mp.messaging.incoming.trigger-amqp.port", String.valueOf(broker.port()),
                "mp.messaging.incoming.trigger-amqp.username", "guest",
                "mp.messaging.incoming.trigger-amqp.password", "guest",
                "mp.messaging.incoming.trigger-amqp.address", "/queue/" + QUEUE);
    }

    /** A sender to an address that exists once the engine's receiver has declared it: tried for up to 60 s. */
    public static Sender senderOnceDeclared(String address) {
        return Awaitility.await("a sender to " + address + " (declared by the engine's receiver)").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> new Sender(address(), address), sender -> true);
    }

    /** An instrument sending to an AMQP 1.0 address; each send returns once the broker has accepted it. */
    public static final class Sender implements AutoCloseable {
        private final Vertx vertx = Vertx.vertx();
        private final AmqpClient client;
        private final AmqpSender sender;

        public Sender(Address broker, String address) {
            try {
                client = AmqpClient.create(vertx, options(broker));
                AmqpConnection connection = await(client.connect().toCompletionStage());
                sender = await(connection.createSender(address).toCompletionStage());
            } catch (RuntimeException e) {
                vertx.close();
                throw e;
            }
        }

        public void send(String subject, String json) {
            await(sendAsync(subject, json));
        }

        /** Sends without waiting (a burst); the stage completes once the broker has accepted the message. */
        public CompletionStage<Void> sendAsync(String subject, String json) {
            AmqpMessage message = AmqpMessage.create().durable(true).subject(subject).withJsonObjectAsBody(new JsonObject(json)).build();
            return sender.sendWithAck(message).toCompletionStage();
        }

        @Override
        public void close() {
            try {
                await(client.close().toCompletionStage());
            } catch (RuntimeException ignored) {
                // closing is best effort
            }
            vertx.close();
        }
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause().getMessage() : e.toString(), e);
        }
    }
}
