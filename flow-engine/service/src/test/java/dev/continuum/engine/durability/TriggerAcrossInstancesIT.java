package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.support.MqttBroker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two engines on one database, only B reading MQTT: a trigger made through A takes the very next message B receives,
 * although B looked up the MQTT triggers for a message a moment before. (B once reused that answer for a second, so
 * the message after a trigger made elsewhere started nothing: issue 18.)
 */
class TriggerAcrossInstancesIT {

    private static final int ROUNDS = 3;

    @Test
    void shouldStartARunOnOneInstanceForTheFirstMessageAfterATriggerWasMadeOnAnother() throws Exception {
        String session = "across-" + UUID.randomUUID().toString().substring(0, 8);
        MqttBroker.Address broker = MqttBroker.address();
        String clientA = "continuum-" + session + "-a-triggers";
        String clientId = "continuum-" + session + "-triggers";
        // A takes MQTT triggers (it refuses them otherwise) but listens where nothing is sent; B reads the lab's topics
        try (DurabilityRig rig = DurabilityRig.create("trigger-across").withEngineProperties(Map.of(
                "mp.messaging.incoming.trigger-mqtt.enabled", "true",
                "mp.messaging.incoming.trigger-mqtt.host", broker.host(),
                "mp.messaging.incoming.trigger-mqtt.port", String.valueOf(broker.port()),
                "mp.messaging.incoming.trigger-mqtt.topic", "quiet/" + session + "/#",
                MqttBroker.CLIENT_ID, clientA))) {
            EngineInstance a = rig.startEngine("A");
            // the later -D of a key wins
            rig.withEngineProperties(Map.of("mp.messaging.incoming.trigger-mqtt.topic", "lab/" + session + "/#",
                    MqttBroker.CLIENT_ID, clientId));
            EngineInstance b = rig.startEngine("B");
            String flowId = a.api().publishFlow("keep", EngineApi.JSON.readTree(
                    "{\"StartAt\":\"Keep\",\"States\":{\"Keep\":{\"Type\":\"Pass\",\"End\":true}}}"));
            String subject = "lab/" + session + "/frames";
            try (MqttBroker.Publisher instrument = new MqttBroker.Publisher(broker)) {
                for (int round = 0; round < ROUNDS; round++) {
                    // B looks the MQTT triggers up for this message (none, or the earlier rounds') ...
                    instrument.publish(subject, "{\"event_id\":\"before-" + round + "\"}");
                    DurabilityRig.pause(150);
                    // ... a trigger is made on A, and the next message reaches B well within a second
                    JsonNode trigger = EngineApi.JSON.readTree("""
                            {"title":"frames %d","source":{"type":"mqtt","topic":"lab/%s/+"},"flow_id":"%s"}"""
                            .formatted(round, session, flowId));
                    String triggerId = a.api().createTrigger(trigger);
                    instrument.publish(subject, "{\"event_id\":\"after-" + round + "\"}");
                    String event = "SELECT count(*) FROM trigger_events WHERE trigger_id = '" + triggerId
                            + "' AND dedup_key = 'mqtt:id:after-" + round + "' AND outcome = 'started'";
                    boolean started = rig.awaitCondition("round " + round + ": B starts a run for the message",
                            Duration.ofSeconds(60), () -> rig.number(event) == 1);
                    assertThat(started).as("round %d: the first message after the trigger was made on A started a run on B "
                            + "(engine B: %s)", round, b.instanceId()).isTrue();
                }
            } finally {
                MqttBroker.removeSession(broker, clientA);
                MqttBroker.removeSession(broker, clientId);
            }
        }
    }
}
