package dev.continuum.engine.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.RabbitMq;
import dev.continuum.engine.support.RabbitMqAvailable;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.extension.ExtendWith;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.amqp.AmqpClient;
import io.vertx.amqp.AmqpClientOptions;
import io.vertx.amqp.AmqpConnection;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run-event stream sent to an AMQP 1.0 broker (the machine's RabbitMQ) by configuration alone: a consumer outside
 * the engine sees a run's changes in commit order, while the engine's own consumers keep theirs. Skipped, saying why,
 * without RabbitMQ's AMQP 1.0 plugin, unless CONTINUUM_REQUIRE_RABBITMQ=1 (CI).
 */
@QuarkusTest
@ExtendWith(RabbitMqAvailable.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestProfile(RunEventsOverAmqpTest.OnAmqp.class)
class RunEventsOverAmqpTest {

    /** Per test JVM, not random: the profile and the test are loaded by different class loaders. */
    static final String ROUTING_KEY = "continuum-test." + ProcessHandle.current().pid() + ".runs";
    /** RabbitMQ's topic exchange: a receiver gets its own auto-deleted queue bound to the key, so nothing outlives the test. */
    static final String ADDRESS = "/exchange/amq.topic/" + ROUTING_KEY;

    /** Nothing but the connector's settings: the code is the same as in memory. */
    public static class OnAmqp implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            if (RabbitMq.unavailable().isPresent()) {
                return Map.of();
            }
            RabbitMq.Address broker = RabbitMq.address();
            Map<String, String> settings = new HashMap<>();
            settings.put("mp.messaging.outgoing.run-events.connector", "smallrye-amqp");
            settings.put("mp.messaging.outgoing.run-events.host", broker.host());
            settings.put("mp.messaging.outgoing.run-events.port", String.valueOf(broker.port()));
            settings.put("mp.messaging.outgoing.run-events.username", "guest");
            settings.put("mp.messaging.outgoing.run-events.password", "guest");
            settings.put("mp.messaging.outgoing.run-events.address", ADDRESS);
            return settings;
        }
    }

    static Vertx vertx;
    static AmqpConnection connection;
    static final List<JsonNode> received = new CopyOnWriteArrayList<>();

    @Inject
    RunEventsRecorder recorder;

    @BeforeAll
    static void receive() throws Exception {
        var missing = RabbitMq.unavailable();
        // RabbitMqAvailable skipped the class where RabbitMQ is missing, unless it is required
        assertThat(missing).as("CONTINUUM_REQUIRE_RABBITMQ=1, but RabbitMQ cannot be used").isEmpty();
        RabbitMq.Address broker = RabbitMq.address();
        vertx = Vertx.vertx();
        connection = AmqpClient.create(vertx, new AmqpClientOptions().setHost(broker.host()).setPort(broker.port())
                        .setUsername("guest").setPassword("guest"))
                .connect().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        ObjectMapper json = new ObjectMapper();
        connection.createReceiver(ADDRESS).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)
                .handler(message -> {
                    try {
                        // the connector sends a record as JSON, in a data section or as a string value
                        byte[] body = message.isBodyNull() ? new byte[0] : bodyBytes(message);
                        received.add(json.readTree(body));
                    } catch (java.io.IOException | RuntimeException unreadable) {
                        received.add(json.getNodeFactory().textNode("unreadable: " + unreadable.getMessage()));
                    }
                });
    }

    private static byte[] bodyBytes(io.vertx.amqp.AmqpMessage message) {
        try {
            return message.bodyAsBinary().getBytes();
        } catch (RuntimeException notBinary) {
            return message.bodyAsString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @AfterAll
    static void close() throws Exception {
        if (vertx != null) {
            connection.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            vertx.close();
        }
    }

    @Test
    void shouldLetAConsumerOnTheBrokerSeeARunsChangesInOrder() {
        String run = Flows.start(Flows.publish(RunEventStreamTest.ECHO_THEN_NAP), "{}");
        assertThat(Flows.awaitStatus(run, Duration.ofSeconds(60), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");

        List<JsonNode> changes = RunEventsOverMqttTest.awaitFinal(received, run);
        assertThat(changes.getFirst().path("status").asText()).isEqualTo("ACTIVE");
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).path("previous_status").asText()).isEqualTo(changes.get(i - 1).path("status").asText());
        }
        assertThat(changes.getLast().has("output")).as("the stream carries no run data").isFalse();
        assertThat(recorder.of(run)).as("the engine's own consumers still get every change").hasSize(changes.size());
    }
}
