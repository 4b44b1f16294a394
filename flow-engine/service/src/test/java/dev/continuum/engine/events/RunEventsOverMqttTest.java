package dev.continuum.engine.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.MqttBroker;
import dev.continuum.engine.support.PostgresResource;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.mqtt.MqttClient;
import io.vertx.mqtt.MqttClientOptions;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run-event stream sent to an MQTT broker by configuration alone (the machine's Mosquitto, else an embedded
 * Moquette): a subscriber outside the engine sees a run's changes, while the engine's own consumers keep theirs.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestProfile(RunEventsOverMqttTest.OnMqtt.class)
class RunEventsOverMqttTest {

    /** Per test JVM, not random: the profile and the test are loaded by different class loaders. */
    static final String TOPIC = "continuum-test/" + ProcessHandle.current().pid() + "/runs";

    /** Nothing but the connector's settings: the code is the same as in memory. */
    public static class OnMqtt implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            MqttBroker.Address broker = MqttBroker.address();
            return Map.of(
                    "mp.messaging.outgoing.run-events.connector", "smallrye-mqtt",
                    "mp.messaging.outgoing.run-events.host", broker.host(),
                    "mp.messaging.outgoing.run-events.port", String.valueOf(broker.port()),
                    "mp.messaging.outgoing.run-events.topic", TOPIC,
                    "mp.messaging.outgoing.run-events.qos", "1");
        }
    }

    static Vertx vertx;
    static MqttClient subscriber;
    static final List<JsonNode> received = new CopyOnWriteArrayList<>();

    @Inject
    RunEventsRecorder recorder;

    @BeforeAll
    static void subscribe() throws Exception {
        MqttBroker.Address broker = MqttBroker.address();
        vertx = Vertx.vertx();
        subscriber = MqttClient.create(vertx, new MqttClientOptions().setClientId("continuum-test-sub-" + UUID.randomUUID()));
        ObjectMapper json = new ObjectMapper();
        subscriber.publishHandler(message -> {
            try {
                received.add(json.readTree(message.payload().getBytes()));
            } catch (java.io.IOException e) {
                received.add(json.getNodeFactory().textNode("unreadable: " + message.payload()));
            }
        });
        subscriber.connect(broker.port(), broker.host()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        subscriber.subscribe(TOPIC, MqttQoS.AT_LEAST_ONCE.value()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void unsubscribe() throws Exception {
        subscriber.disconnect().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close();
    }

    @Test
    void shouldLetASubscriberOnTheBrokerSeeARunsChangesInOrder() {
        String run = Flows.start(Flows.publish(RunEventStreamTest.ECHO_THEN_NAP), "{}");
        assertThat(Flows.awaitStatus(run, Duration.ofSeconds(60), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");

        List<JsonNode> changes = awaitFinal(received, run);
        assertThat(changes.getFirst().path("status").asText()).isEqualTo("ACTIVE");
        assertThat(changes.getFirst().path("previous_status").isMissingNode() || changes.getFirst().path("previous_status").isNull())
                .as("the start has no previous status: %s", changes.getFirst()).isTrue();
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).path("previous_status").asText()).isEqualTo(changes.get(i - 1).path("status").asText());
        }
        assertThat(changes.getLast().path("flow_version").asInt()).isEqualTo(1);
        assertThat(changes.getLast().has("output")).as("the stream carries no run data").isFalse();
        assertThat(recorder.of(run)).as("the engine's own consumers still get every change")
                .hasSize(changes.size());
    }

    /** The run's changes a subscriber outside the engine received, once the last is SUCCEEDED (up to 30 s). */
    static List<JsonNode> awaitFinal(List<JsonNode> received, String run) {
        return await("the broker's subscriber sees a SUCCEEDED change of run " + run).atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> received.stream().filter(change -> run.equals(change.path("run_id").asText())).toList(),
                        mine -> !mine.isEmpty() && mine.getLast().path("status").asText().equals("SUCCEEDED"));
    }
}
