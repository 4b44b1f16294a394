package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.triggers.MessageIngest;
import dev.continuum.engine.config.EngineConfig;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.amqp.IncomingAmqpMetadata;
import io.smallrye.reactive.messaging.mqtt.ReceivingMqttMessageMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Broker messages into triggers. SmallRye channels are fixed at start, triggers are made at run time: so each
 * broker kind has one channel subscribed to a configured topic (default {@code #}, QoS 1, persistent session), and
 * every message is routed to the active triggers whose topic filter matches (MessageIngest). A trigger made or
 * deleted through the API is followed at once, without subscribing or unsubscribing anything.
 *
 * <p>Acknowledgement comes only after the outcome is committed: the MQTT channel's connector (MqttSessionConnector)
 * sends the PUBACK when the message is acked here, once MessageIngest is done; an AMQP message is accepted then.
 * Messages are handled side by side, at most {@code continuum.triggers.max-in-flight} per channel at once; each
 * channel's {@link AckWindow} keeps them in arrival order, lets the rest wait their turn, and acknowledges in arrival
 * order. How many are unacknowledged at once is the broker's in-flight window (it sends no more until acks come).
 * Acks are sent from the channel's own context, one thread, so they leave in the order the window releases them.
 */
@ApplicationScoped
public class TriggerMessages {

    private static final Logger LOG = Logger.getLogger(TriggerMessages.class);

    private final MessageIngest ingest;
    private final EventLoop loop;
    private final AckWindow mqttWindow;
    private final AckWindow amqpWindow;

    public TriggerMessages(MessageIngest ingest, EventLoop loop, EngineConfig config) {
        this.ingest = ingest;
        this.loop = loop;
        this.mqttWindow = new AckWindow(config.triggers().maxInFlight());
        this.amqpWindow = new AckWindow(config.triggers().maxInFlight());
    }

    @Incoming(TriggerChannels.MQTT)
    Uni<Void> mqtt(Message<byte[]> message) {
        var metadata = message.getMetadata(ReceivingMqttMessageMetadata.class).orElseThrow();
        take(mqttWindow, "mqtt", metadata.getTopic(), message.getPayload(), message::ack);
        return Uni.createFrom().voidItem();
    }

    @Incoming(TriggerChannels.AMQP)
    Uni<Void> amqp(Message<Object> message) {
        var metadata = message.getMetadata(IncomingAmqpMetadata.class).orElse(null);
        String topic = metadata == null ? "" : metadata.getSubject() != null ? metadata.getSubject() : metadata.getAddress();
        take(amqpWindow, "amqp", topic, bytes(message.getPayload()), message::ack);
        return Uni.createFrom().voidItem();
    }

    /**
     * Takes the message into the channel's window; when it gets a slot, it is handed to MessageIngest on a duplicated
     * context of its own, as a request would be (starting a run may load a flow through Hibernate Reactive). Its
     * outcome comes back to the channel's context, which sends the acks the window releases.
     */
    private void take(AckWindow window, String sourceType, String topic, byte[] payload, Runnable ack) {
        Context channel = Vertx.currentContext();
        BiConsumer<AckWindow.Entry, Boolean> finish = (entry, acknowledge) -> {
            if (channel == null) {
                run(window.done(entry, acknowledge), sourceType, topic);
            } else {
                channel.runOnContext(ignored -> run(window.done(entry, acknowledge), sourceType, topic));
            }
        };
        Consumer<AckWindow.Entry> work = entry -> loop.execute(() -> ingest.take(sourceType, topic, payload).subscribe().with(
                outcomes -> finish.accept(entry, true),
                failure -> {
                    LOG.errorf("%s message on '%s' not taken in (%s); it stays unacknowledged and comes again when the "
                            + "engine reconnects", sourceType, topic, failure.getMessage());
                    finish.accept(entry, false);
                }));
        run(window.open(work, ack), sourceType, topic);
    }

    private static void run(List<Runnable> actions, String sourceType, String topic) {
        for (Runnable action : actions) {
            try {
                action.run();
            } catch (RuntimeException e) {
                // an ack on a connection that is gone: the broker resends the message on the new one, and its dedup
                // key meets the record
                LOG.debugf("%s message on '%s': %s", sourceType, topic, e);
            }
        }
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
