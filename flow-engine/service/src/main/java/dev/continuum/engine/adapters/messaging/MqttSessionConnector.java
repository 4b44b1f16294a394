package dev.continuum.engine.adapters.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.reactive.messaging.ClientCustomizer;
import io.smallrye.reactive.messaging.connector.InboundConnector;
import io.smallrye.reactive.messaging.mqtt.MqttConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.mqtt.ReceivingMqttMessageMetadata;
import io.smallrye.reactive.messaging.mqtt.internal.MqttHelpers;
import io.smallrye.reactive.messaging.mqtt.session.MqttClientSession;
import io.smallrye.reactive.messaging.mqtt.session.MqttClientSessionOptions;
import io.smallrye.reactive.messaging.mqtt.session.RequestedQoS;
import io.smallrye.reactive.messaging.providers.helpers.ConfigUtils;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mqtt.messages.MqttPublishMessage;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;

/**
 * An incoming SmallRye channel on an MQTT persistent session that loses nothing the broker sends right after CONNACK
 * (ADR 0023). The stock {@code smallrye-mqtt} source connects and subscribes when the channel is created and hands
 * messages to a broadcast processor that its consumer subscribes to later; what a resumed session brings in between —
 * everything that waited while the engine was down — is dropped without a PUBACK, fills the broker's in-flight window,
 * and nothing more comes until the next reconnect.
 *
 * <p>This connector uses the same MQTT session client ({@link MqttClientSession}: reconnect with backoff, persistent
 * session, the same channel attributes as {@code smallrye-mqtt}: host, port, client-id, auto-clean-session, username,
 * password, ssl, ...) but opens the connection only once the channel's consumer has subscribed, and every message goes
 * into that one subscription's buffer, in arrival order. Acknowledgement is the consumer's: automatic PUBACK is off,
 * and {@code Message.ack()} sends it (the trigger channel acks after the commit). A nack sends nothing, so the broker
 * keeps the message and resends it on the next connection.
 */
@ApplicationScoped
@Connector(MqttSessionConnector.NAME)
public class MqttSessionConnector implements InboundConnector {

    static final String NAME = "continuum-mqtt";

    private final Vertx vertx;
    private final Instance<MqttClientSessionOptions> namedOptions;
    private final Instance<ClientCustomizer<MqttClientSessionOptions>> customizers;
    private final List<MqttClientSession> sessions = new CopyOnWriteArrayList<>();

    public MqttSessionConnector(Vertx vertx, @Any Instance<MqttClientSessionOptions> namedOptions,
                                @Any Instance<ClientCustomizer<MqttClientSessionOptions>> customizers) {
        this.vertx = vertx;
        this.namedOptions = namedOptions;
        this.customizers = customizers;
    }

    @Override
    public Flow.Publisher<? extends Message<?>> getPublisher(Config config) {
        var channel = new MqttConnectorIncomingConfiguration(config);
        MqttClientSessionOptions options = ConfigUtils.customize(config, customizers,
                MqttHelpers.createClientOptions(channel, namedOptions));
        options.setAutoAck(false);
        String topic = channel.getTopic().orElse(channel.getChannel());
        RequestedQoS qos = RequestedQoS.valueOf(channel.getQos());
        // one context delivers every message of the channel, so the consumer sees (and acknowledges) them in order
        Context delivery = vertx.getOrCreateContext();
        return Multi.createFrom().<MqttPublishMessage>emitter(emitter -> {
                    MqttClientSession session = MqttClientSession.create(vertx, options);
                    session.messageHandler(emitter::emit);
                    // recorded before the connection exists: sent after CONNACK, or found in the resumed session
                    session.subscribe(topic, qos);
                    session.start();
                    sessions.add(session);
                    emitter.onTermination(() -> {
                        sessions.remove(session);
                        session.stop();
                    });
                }, BackPressureStrategy.BUFFER)
                .emitOn(task -> delivery.runOnContext(ignored -> task.run()))
                .map(MqttSessionConnector::message);
    }

    private static Message<byte[]> message(MqttPublishMessage received) {
        var metadata = new ReceivingMqttMessageMetadata(io.vertx.mutiny.mqtt.messages.MqttPublishMessage.newInstance(received));
        return Message.of(received.payload().getBytes(), Metadata.of(metadata), () -> {
            received.ack();
            return CompletableFuture.completedFuture(null);
        }, failure -> CompletableFuture.completedFuture(null));
    }

    @PreDestroy
    void stop() {
        sessions.forEach(MqttClientSession::stop);
    }
}
