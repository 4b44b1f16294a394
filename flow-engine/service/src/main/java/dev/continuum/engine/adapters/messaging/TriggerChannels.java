package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.triggers.BrokerChannels;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;

/**
 * The SmallRye channels that carry trigger messages: {@code trigger-mqtt} (smallrye-mqtt) feeds {@code mqtt}
 * triggers, {@code trigger-amqp} (smallrye-amqp) feeds {@code amqp} triggers. Each is on or off by
 * {@code mp.messaging.incoming.<channel>.enabled} (docs/operations.md).
 */
@ApplicationScoped
public class TriggerChannels implements BrokerChannels {

    static final String MQTT = "trigger-mqtt";
    static final String AMQP = "trigger-amqp";

    private final Config config;

    public TriggerChannels(Config config) {
        this.config = config;
    }

    static String channelOf(String sourceType) {
        return "trigger-" + sourceType;
    }

    @Override
    public boolean receives(String sourceType) {
        return config.getOptionalValue(enabledKey(sourceType), Boolean.class).orElse(true)
                && config.getOptionalValue("mp.messaging.incoming." + channelOf(sourceType) + ".connector", String.class).isPresent();
    }

    @Override
    public String enabledKey(String sourceType) {
        return "mp.messaging.incoming." + channelOf(sourceType) + ".enabled";
    }
}
