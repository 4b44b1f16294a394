package dev.continuum.provider.transfer.gateway;

import io.netty.handler.codec.mqtt.MqttQoS;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.mqtt.MqttClient;
import io.vertx.mqtt.MqttClientOptions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.logging.Logger;

/**
 * One outbound MQTT connection of the gateway storage protocol (either half) that keeps itself up:
 * clean session (a request nobody answered in time is retried by its sender, so nothing needs
 * queueing by the broker), an optional retained last will, subscriptions re-made on every connect,
 * reconnection with backoff 0.2–5 s. Frames up to {@link #MAX_FRAME} bytes (a chunk of at most 64 MiB
 * plus its header; vert.x would otherwise use Netty's decoder limit of 8092 bytes and drop the link
 * on the first chunk), up to 64 QoS 1 messages in flight.
 */
final class MqttConnection implements AutoCloseable {

    static final int MAX_FRAME = 64 * 1024 * 1024 + 64 * 1024;

    private static final Logger LOG = Logger.getLogger(MqttConnection.class.getName());

    /** Retained message published on connect, and by the broker (last will) when the link dies. */
    record Presence(String topic, byte[] online, byte[] offline) {}

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    private final Context context = vertx.getOrCreateContext();
    private final String host;
    private final int port;
    private final String clientId;
    private final Presence presence;
    private final BrokerLogin login;
    private final Map<String, BiConsumer<String, byte[]>> subscriptions = new ConcurrentHashMap<>();
    private volatile MqttClient client;
    private volatile CompletableFuture<Void> up = new CompletableFuture<>();
    private volatile boolean closed;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private Duration backoff = Duration.ofMillis(200);

    MqttConnection(String host, int port, String clientId, Presence presence) {
        this(host, port, clientId, presence, null);
    }

    /** {@code login} null: anonymous. */
    MqttConnection(String host, int port, String clientId, Presence presence, BrokerLogin login) {
        this.host = host;
        this.port = port;
        this.clientId = clientId;
        this.presence = presence;
        this.login = login;
    }

    /** Registers a handler (called on the event loop: hand work to another thread) and connects if not yet. */
    MqttConnection subscribe(String topic, BiConsumer<String, byte[]> handler) {
        subscriptions.put(topic, handler);
        MqttClient c = client;
        if (c != null && c.isConnected()) {
            context.runOnContext(v -> c.subscribe(topic, 1));
        }
        return this;
    }

    /** Starts connecting (once); the returned future completes when connected with subscriptions made. */
    CompletableFuture<Void> start() {
        if (started.compareAndSet(false, true)) {
            context.runOnContext(v -> connect());
        }
        return up;
    }

    /** Publishes at QoS 1; completes when the broker has it (PUBACK). Fails at once while the link is down. */
    CompletableFuture<Void> publish(String topic, byte[] payload, boolean retain) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(v -> {
            MqttClient c = client;
            if (c == null || !c.isConnected()) {
                done.completeExceptionally(new IllegalStateException("MQTT link to " + host + ":" + port + " is down"));
                return;
            }
            c.publish(topic, Buffer.buffer(payload), MqttQoS.AT_LEAST_ONCE, false, retain)
                    .onSuccess(id -> done.complete(null))
                    .onFailure(done::completeExceptionally);
        });
        return done;
    }

    private void connect() {
        if (closed) {
            return;
        }
        MqttClientOptions options = new MqttClientOptions().setClientId(clientId).setCleanSession(true)
                .setKeepAliveInterval(10).setMaxInflightQueue(64).setMaxMessageSize(MAX_FRAME).setAutoKeepAlive(true);
        if (login != null) {
            options.setUsername(login.username()).setPassword(login.password());
        }
        if (presence != null) {
            options.setWillFlag(true).setWillTopic(presence.topic()).setWillMessageBytes(Buffer.buffer(presence.offline()))
                    .setWillQoS(1).setWillRetain(true);
        }
        MqttClient c = MqttClient.create(vertx, options);
        c.publishHandler(m -> {
            BiConsumer<String, byte[]> h = subscriptions.get(m.topicName());
            if (h != null) {
                h.accept(m.topicName(), m.payload().getBytes());
            }
        });
        c.closeHandler(v -> {
            if (!closed) {
                if (up.isDone()) {
                    up = new CompletableFuture<>();
                }
                LOG.info(() -> "MQTT link " + clientId + " lost; reconnecting");
                retryLater();
            }
        });
        c.connect(port, host).onSuccess(ack -> {
            client = c;
            backoff = Duration.ofMillis(200);
            subscriptions.keySet().forEach(topic -> c.subscribe(topic, 1));
            if (presence != null) {
                c.publish(presence.topic(), Buffer.buffer(presence.online()), MqttQoS.AT_LEAST_ONCE, false, true);
            }
            // a SUBACK for the last subscription means the broker routes replies to us from now on
            c.subscribe(clientId + "/ready", 0).onComplete(r -> up.complete(null));
        }).onFailure(e -> retryLater());
    }

    private void retryLater() {
        long delay = backoff.toMillis();
        backoff = Duration.ofMillis(Math.min(5000, delay * 2));
        vertx.setTimer(delay, t -> connect());
    }

    /** Disconnects cleanly; the retained presence is set offline first (no last will needed). */
    @Override
    public void close() {
        closed = true;
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(v -> {
            MqttClient c = client;
            if (c == null || !c.isConnected()) {
                done.complete(null);
                return;
            }
            if (presence == null) {
                c.disconnect().onComplete(r -> done.complete(null));
                return;
            }
            c.publish(presence.topic(), Buffer.buffer(presence.offline()), MqttQoS.AT_LEAST_ONCE, false, true)
                    .onComplete(r -> c.disconnect().onComplete(d -> done.complete(null)));
        });
        try {
            done.orTimeout(5, TimeUnit.SECONDS).join();
        } catch (RuntimeException ignored) {
            // the broker is gone: its last will marks us offline anyway
        }
        vertx.close();
    }

    /** Drops the TCP connection without DISCONNECT, as a crash or a cut link would (the broker then sends the will). */
    void kill() {
        closed = true;
        if (stopped.compareAndSet(false, true)) {
            vertx.close();
        }
    }
}
