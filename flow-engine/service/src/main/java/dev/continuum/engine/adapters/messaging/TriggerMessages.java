package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.triggers.MessageIngest;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.amqp.IncomingAmqpMetadata;
import io.smallrye.reactive.messaging.mqtt.ReceivingMqttMessageMetadata;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;

/**
 * Broker messages into triggers. SmallRye channels are fixed at start, triggers are made at run time: so each
 * broker kind has one channel subscribed to a configured topic (default {@code #}, QoS 1, persistent session), and
 * every message is routed to the active triggers whose topic filter matches (MessageIngest). A trigger made or
 * deleted through the API is followed at once, without subscribing or unsubscribing anything.
 *
 * <p>Acknowledgement comes only after the outcome is committed: the MQTT client's automatic PUBACK is off
 * (ManualMqttAcks), and the PUBACK is sent here when MessageIngest is done; an AMQP message is accepted then.
 * Handling is not awaited by the channel, so messages are handled side by side, as many as the broker lets the
 * engine hold unacknowledged (MQTT: the broker's in-flight window, e.g. Mosquitto's max_inflight_messages).
 */
@ApplicationScoped
public class TriggerMessages {

    private static final Logger LOG = Logger.getLogger(TriggerMessages.class);

    private final MessageIngest ingest;
    private final EventLoop loop;

    public TriggerMessages(MessageIngest ingest, EventLoop loop) {
        this.ingest = ingest;
        this.loop = loop;
    }

    @Incoming(TriggerChannels.MQTT)
    Uni<Void> mqtt(Message<byte[]> message) {
        var metadata = message.getMetadata(ReceivingMqttMessageMetadata.class).orElseThrow();
        take("mqtt", metadata.getTopic(), message.getPayload(), () -> {
            metadata.getMessage().ack();
            return Uni.createFrom().completionStage(message.ack());
        });
        return Uni.createFrom().voidItem();
    }

    @Incoming(TriggerChannels.AMQP)
    Uni<Void> amqp(Message<Object> message) {
        var metadata = message.getMetadata(IncomingAmqpMetadata.class).orElse(null);
        String topic = metadata == null ? "" : metadata.getSubject() != null ? metadata.getSubject() : metadata.getAddress();
        take("amqp", topic, bytes(message.getPayload()), () -> Uni.createFrom().completionStage(message.ack()));
        return Uni.createFrom().voidItem();
    }

    /** On a duplicated context of its own, as a request would be (starting a run may load a flow through Hibernate Reactive). */
    private void take(String sourceType, String topic, byte[] payload, java.util.function.Supplier<Uni<Void>> ack) {
        loop.execute(() -> ingest.take(sourceType, topic, payload).replaceWithVoid().chain(ack::get).subscribe().with(
                done -> {},
                failure -> LOG.errorf("%s message on '%s' not taken in (%s); it stays unacknowledged and comes again "
                        + "when the engine reconnects", sourceType, topic, failure.getMessage())));
    }

    /** The AMQP connector hands over the body as it was typed: data bytes, a string, or JSON. */
    static byte[] bytes(Object body) {
        return switch (body) {
            case byte[] raw -> raw;
            case Buffer buffer -> buffer.getBytes();
            case io.vertx.mutiny.core.buffer.Buffer buffer -> buffer.getBytes();
            case JsonObject object -> object.encode().getBytes(StandardCharsets.UTF_8);
            case JsonArray array -> array.encode().getBytes(StandardCharsets.UTF_8);
            case null -> new byte[0];
            default -> String.valueOf(body).getBytes(StandardCharsets.UTF_8);
        };
    }
}
