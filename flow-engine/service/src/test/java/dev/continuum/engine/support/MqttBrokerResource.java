package dev.continuum.engine.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Turns the engine's MQTT trigger channel on against a real broker (MqttBroker: the machine's, else Moquette). */
public class MqttBrokerResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return MqttBroker.engineSettings(MqttBroker.address());
    }

    @Override
    public void stop() {
        // the embedded broker, if any, lives as long as the test JVM
    }
}
