package dev.continuum.engine.adapters.messaging;

import io.smallrye.reactive.messaging.ClientCustomizer;
import io.smallrye.reactive.messaging.mqtt.session.MqttClientSessionOptions;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;

/**
 * The Vert.x MQTT client acknowledges a QoS 1 message (PUBACK) as it arrives, before anyone handled it; the SmallRye
 * connector has no setting for it. For the trigger channel the PUBACK must wait until the run is committed, so
 * automatic acks are turned off here and TriggerMessages sends each one itself.
 */
@ApplicationScoped
public class ManualMqttAcks implements ClientCustomizer<MqttClientSessionOptions> {

    @Override
    public MqttClientSessionOptions customize(String channel, Config channelConfig, MqttClientSessionOptions options) {
        if (channel.equals(TriggerChannels.MQTT)) {
            options.setAutoAck(false);
        }
        return options;
    }
}
