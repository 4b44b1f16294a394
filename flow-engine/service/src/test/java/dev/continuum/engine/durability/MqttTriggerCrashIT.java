package dev.continuum.engine.durability;

import dev.continuum.engine.support.MqttBroker;

import java.util.Map;

/**
 * Exactly one run per MQTT event across a crash (BrokerTriggerCrash): events at QoS 1 on the machine's Mosquitto (else
 * an embedded Moquette), the engine's MQTT trigger channel on its persistent session, and the restarted engine resumes
 * the same session. The broker resends what the dead engine had not acknowledged, and delivers what queued meanwhile,
 * right after CONNACK. (With the stock smallrye-mqtt source those first messages were dropped before its consumer
 * subscribed, and no event came after the restart: ADR 0023.) The session is removed from the broker at the end.
 */
class MqttTriggerCrashIT extends BrokerTriggerCrash {

    private final MqttBroker.Address broker = MqttBroker.address();

    @Override
    String sourceType() {
        return "mqtt";
    }

    @Override
    Map<String, String> engineProperties(String session) {
        return Map.of(
                "mp.messaging.incoming.trigger-mqtt.enabled", "true",
                "mp.messaging.incoming.trigger-mqtt.host", broker.host(),
                "mp.messaging.incoming.trigger-mqtt.port", String.valueOf(broker.port()),
                // this test's topics only, not everything on a broker others use too
                "mp.messaging.incoming.trigger-mqtt.topic", "lab/" + session + "/#",
                // the same persistent session before and after the restart, as continuum.instance-id gives in production
                MqttBroker.CLIENT_ID, clientId(session));
    }

    @Override
    Instrument instrument(String session) {
        MqttBroker.Publisher publisher = new MqttBroker.Publisher(broker);
        return new Instrument() {
            @Override
            public java.util.concurrent.CompletionStage<?> send(String subject, String json) {
                return publisher.publishAsync(subject, json);
            }

            @Override
            public void close() {
                publisher.close();
            }
        };
    }

    @Override
    void removeFromBroker(String session) {
        MqttBroker.removeSession(broker, clientId(session));
    }

    @Override
    String broker() {
        return "%s:%d (%s)".formatted(broker.host(), broker.port(), broker.embedded() ? "embedded Moquette" : "the machine's");
    }

    private static String clientId(String session) {
        return "continuum-" + session + "-triggers";
    }
}
