package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.support.MqttBroker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly one run per MQTT event across a crash: an instrument publishes a burst of events at QoS 1, the engine (a
 * real process from the packaged jar, MQTT trigger channel on with its persistent session) is killed with SIGKILL
 * while it is taking them in, the rest of the burst is published while it is down, and the same instance restarts.
 * The broker resends what the dead engine had not acknowledged and delivers what came meanwhile, right after CONNACK;
 * every event must then have started exactly one run — none lost, none run twice. (With the stock smallrye-mqtt
 * source those first messages were dropped before its consumer subscribed and no event came after the restart:
 * ADR 0023.) The session is removed from the broker at the end.
 */
class MqttTriggerCrashIT {

    private static final int EVENTS = 300;

    @Test
    void shouldStartExactlyOneRunPerEventWhenTheEngineIsKilledDuringABurst() throws Exception {
        MqttBroker.Address broker = MqttBroker.address();
        String session = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        String clientId = "continuum-" + session + "-triggers";
        try (DurabilityRig rig = DurabilityRig.create("mqtt-crash").withEngineProperties(Map.of(
                "mp.messaging.incoming.trigger-mqtt.enabled", "true",
                "mp.messaging.incoming.trigger-mqtt.host", broker.host(),
                "mp.messaging.incoming.trigger-mqtt.port", String.valueOf(broker.port()),
                // this test's topics only, not everything on a broker others use too
                "mp.messaging.incoming.trigger-mqtt.topic", "lab/" + session + "/#",
                // the same persistent session before and after the restart, as continuum.instance-id gives in production
                MqttBroker.CLIENT_ID, clientId));
             MqttBroker.Publisher instrument = new MqttBroker.Publisher(broker)) {
            rig.say("broker %s:%d (%s)", broker.host(), broker.port(), broker.embedded() ? "embedded Moquette" : "the machine's");
            EngineInstance engine = rig.startEngine(session);
            String flowId = engine.api().publishFlow("keep", EngineApi.JSON.readTree(
                    "{\"StartAt\":\"Keep\",\"States\":{\"Keep\":{\"Type\":\"Pass\",\"End\":true}}}"));
            String topic = "lab/" + session + "/frames";
            ObjectNode trigger = (ObjectNode) EngineApi.JSON.readTree("""
                    {"title":"frames","source":{"type":"mqtt","topic":"lab/%s/+"},"flow_id":"%s","input_template":{"n.$":"$.n"}}"""
                    .formatted(session, flowId));
            String triggerId = engine.api().createTrigger(trigger);

            List<CompletableFuture<Integer>> sent = new ArrayList<>();
            int n = 0;
            for (; n < EVENTS / 2; n++) {
                sent.add(publish(instrument, topic, n));
            }
            boolean midBurst = rig.awaitCondition("a third of the events recorded", Duration.ofSeconds(120),
                    () -> recorded(rig) >= EVENTS / 3);
            engine.kill();
            long atKill = recorded(rig);
            rig.say("kill -9 engine %s with %d of %d events recorded, %d published", session, atKill, EVENTS, n);
            for (; n < EVENTS; n++) {
                sent.add(publish(instrument, topic, n));
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            rig.say("all %d events at the broker (PUBACK) while the engine is down", EVENTS);

            engine = rig.restart(engine);
            boolean all = rig.awaitCondition("every event's outcome", Duration.ofSeconds(180), () -> recorded(rig) >= EVENTS);
            rig.awaitCondition("every run finished", Duration.ofSeconds(60),
                    () -> rig.number("SELECT count(*) FROM runs WHERE status <> 'SUCCEEDED'") == 0);
            long started = rig.number("SELECT count(*) FROM trigger_events WHERE outcome = 'started' AND trigger_id = '" + triggerId + "'");
            long duplicates = rig.number("SELECT count(*) FROM trigger_events WHERE outcome = 'duplicate' AND trigger_id = '" + triggerId + "'");
            long runs = rig.number("SELECT count(*) FROM runs");
            long runsOfEvents = rig.number("SELECT count(DISTINCT r.id) FROM runs r JOIN trigger_events e ON e.run_id = r.id "
                    + "AND e.outcome = 'started'");
            long missing = rig.number("SELECT count(*) FROM generate_series(0, " + (EVENTS - 1) + ") n WHERE NOT EXISTS "
                    + "(SELECT 1 FROM trigger_events WHERE dedup_key = 'mqtt:id:e-' || n AND outcome = 'started')");
            rig.say("after the restart: %d events started a run, %d redeliveries recorded as duplicates, %d runs, %d missing",
                    started, duplicates, runs, missing);

            assertThat(midBurst).as("the kill came while events were being taken in").isTrue();
            assertThat(atKill).as("events recorded at the kill").isPositive().isLessThan(EVENTS);
            assertThat(all).as("every event recorded after the restart").isTrue();
            assertThat(missing).as("events that started no run").isZero();
            assertThat(started).as("events that started a run").isEqualTo(EVENTS);
            assertThat(runs).as("runs: one per event, none twice").isEqualTo(EVENTS);
            assertThat(runsOfEvents).as("runs that are some event's run").isEqualTo(EVENTS);
            assertThat(rig.runsByStatus()).containsExactly(Map.entry("SUCCEEDED", EVENTS));
        } finally {
            MqttBroker.removeSession(broker, clientId);
        }
    }

    private static CompletableFuture<Integer> publish(MqttBroker.Publisher instrument, String topic, int n) {
        return instrument.publishAsync(topic, "{\"event_id\":\"e-" + n + "\",\"n\":" + n + "}").toCompletableFuture();
    }

    /** Events with a committed outcome (not a claim in progress), read from the database. */
    private static long recorded(DurabilityRig rig) {
        return rig.number("SELECT count(DISTINCT dedup_key) FROM trigger_events WHERE outcome <> 'starting'");
    }
}
