package dev.continuum.engine.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * Turns the engine's MQTT trigger channel on against a real broker (MqttBroker: the machine's, else Moquette), and
 * removes the channel's persistent session from the broker afterwards.
 */
public class MqttBrokerResource implements QuarkusTestResourceLifecycleManager {

    private MqttBroker.Address broker;
    private String clientId;

    @Override
    public Map<String, String> start() {
        broker = MqttBroker.address();
        Map<String, String> settings = MqttBroker.engineSettings(broker);
        clientId = settings.get(MqttBroker.CLIENT_ID);
        return settings;
    }

    @Override
    public void stop() {
        // the engine has disconnected; its persistent session would stay on the broker (the embedded one, if any,
        // lives as long as the test JVM)
        if (broker != null) {
            MqttBroker.removeSession(broker, clientId);
        }
    }
}
