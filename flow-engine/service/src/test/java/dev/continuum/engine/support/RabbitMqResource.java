package dev.continuum.engine.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Turns the engine's AMQP trigger channel on against the machine's RabbitMQ (RabbitMq), when it is there. */
public class RabbitMqResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        // without a broker the channel stays off, and the test skips saying why
        return RabbitMq.unavailable().isEmpty() ? RabbitMq.engineSettings(RabbitMq.address()) : Map.of();
    }

    @Override
    public void stop() {
        // the broker is the machine's
    }
}
