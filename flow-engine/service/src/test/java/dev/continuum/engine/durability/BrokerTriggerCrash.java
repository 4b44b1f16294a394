package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly one run per broker event across a crash, the same story for every broker kind: an instrument sends a burst
 * of events, the engine (a real process from the packaged jar, the broker's trigger channel on) is killed with
 * SIGKILL while it is taking them in, the rest of the burst is sent while it is down, and the same instance restarts.
 * The broker delivers again what the dead engine had not acknowledged, and what came meanwhile; every event must then
 * have started exactly one run — none lost, none run twice. A subclass names the broker and how to reach it.
 */
abstract class BrokerTriggerCrash {

    static final int EVENTS = 300;

    /** An instrument sending events; each send completes once the broker has the event. */
    interface Instrument extends AutoCloseable {
        CompletionStage<?> send(String subject, String json);

        @Override
        void close();
    }

    /** The trigger source type and the prefix of its dedup keys: {@code mqtt}, {@code amqp}. */
    abstract String sourceType();

    /** System properties that turn the engine's channel for this broker on; {@code session} names this test run. */
    abstract Map<String, String> engineProperties(String session);

    /** An instrument connected to the broker, once the engine's channel is up (it may declare what it reads). */
    abstract Instrument instrument(String session);

    /** Removes what the test left at the broker (a persistent session, a queue). */
    abstract void removeFromBroker(String session);

    /** Which broker this is, for the story the test prints. */
    abstract String broker();

    @Test
    void shouldStartExactlyOneRunPerEventWhenTheEngineIsKilledDuringABurst() throws Exception {
        String session = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        try (DurabilityRig rig = DurabilityRig.create(sourceType() + "-crash").withEngineProperties(engineProperties(session))) {
            rig.say("broker: %s", broker());
            EngineInstance engine = rig.startEngine(session);
            String flowId = engine.api().publishFlow("keep", EngineApi.JSON.readTree(
                    "{\"StartAt\":\"Keep\",\"States\":{\"Keep\":{\"Type\":\"Pass\",\"End\":true}}}"));
            String subject = "lab/" + session + "/frames";
            ObjectNode trigger = (ObjectNode) EngineApi.JSON.readTree("""
                    {"title":"frames","source":{"type":"%s","topic":"lab/%s/+"},"flow_id":"%s","input_template":{"n.$":"$.n"}}"""
                    .formatted(sourceType(), session, flowId));
            String triggerId = engine.api().createTrigger(trigger);

            try (Instrument instrument = instrument(session)) {
                List<CompletableFuture<?>> sent = new ArrayList<>();
                int n = 0;
                for (; n < EVENTS / 2; n++) {
                    sent.add(send(instrument, subject, n));
                }
                boolean midBurst = rig.awaitCondition("a third of the events recorded", Duration.ofSeconds(120),
                        () -> recorded(rig) >= EVENTS / 3);
                engine.kill();
                long atKill = recorded(rig);
                rig.say("kill -9 engine %s with %d of %d events recorded, %d sent", session, atKill, EVENTS, n);
                for (; n < EVENTS; n++) {
                    sent.add(send(instrument, subject, n));
                }
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                rig.say("all %d events at the broker while the engine is down", EVENTS);

                engine = rig.restart(engine);
                boolean all = rig.awaitCondition("every event's outcome", Duration.ofSeconds(180), () -> recorded(rig) >= EVENTS);
                rig.awaitCondition("every run finished", Duration.ofSeconds(60),
                        () -> rig.number("SELECT count(*) FROM runs WHERE status <> 'SUCCEEDED'") == 0);
                String ofTrigger = " AND trigger_id = '" + triggerId + "'";
                long started = rig.number("SELECT count(*) FROM trigger_events WHERE outcome = 'started'" + ofTrigger);
                long duplicates = rig.number("SELECT count(*) FROM trigger_events WHERE outcome = 'duplicate'" + ofTrigger);
                long runs = rig.number("SELECT count(*) FROM runs");
                long runsOfEvents = rig.number("SELECT count(DISTINCT r.id) FROM runs r JOIN trigger_events e ON e.run_id = r.id "
                        + "AND e.outcome = 'started'");
                long missing = rig.number("SELECT count(*) FROM generate_series(0, " + (EVENTS - 1) + ") n WHERE NOT EXISTS "
                        + "(SELECT 1 FROM trigger_events WHERE dedup_key = '" + sourceType() + ":id:e-' || n AND outcome = 'started')");
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
            }
        } finally {
            removeFromBroker(session);
        }
    }

    private static CompletableFuture<?> send(Instrument instrument, String subject, int n) {
        return instrument.send(subject, "{\"event_id\":\"e-" + n + "\",\"n\":" + n + "}").toCompletableFuture();
    }

    /** Events with a committed outcome (not a claim in progress), read from the database. */
    private static long recorded(DurabilityRig rig) {
        return rig.number("SELECT count(DISTINCT dedup_key) FROM trigger_events WHERE outcome <> 'starting'");
    }
}
