package dev.continuum.edge.protocol.mqtt;

import dev.continuum.edge.protocol.Topics;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mqtt.MqttClient;
import io.vertx.mqtt.MqttClientOptions;
import io.vertx.mqtt.MqttConnectionException;
import io.vertx.mqtt.messages.MqttPublishMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One long-lived MQTT 3.1.1 connection that keeps itself up: a stable client id, a persistent
 * session ({@code cleanSession=false}, so the broker queues QoS 1 messages while we are away),
 * an optional retained last will, and reconnection with capped exponential backoff. Subscriptions
 * are re-made on every connect (harmless when the session survived, needed when the broker lost it).
 *
 * <p>Incoming QoS 1 messages are acknowledged only when their handler calls {@link Incoming#ack()},
 * so a receiver can persist a message before the broker forgets it. Publishing at QoS 1 completes
 * on PUBACK; when the connection drops first the future fails and the caller decides whether to
 * resend (the edge link resends from disk, and receivers are idempotent by task id).
 */
public final class MqttLink implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MqttLink.class.getName());

    /** A retained message the broker publishes if the connection dies without a DISCONNECT. */
    public record Will(String topic, byte[] payload) {}

    /**
     * MQTT user name and password. The password is asked for at every connect, so a gateway can move
     * from its bootstrap token to its device credential; it is never logged.
     */
    public record Login(String username, java.util.function.Supplier<String> password) {
        public Login {
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }

        public static Login of(String username, String password) {
            return new Login(username, () -> password);
        }

        /** {@code CONTINUUM_MQTT_USERNAME} and {@code CONTINUUM_MQTT_PASSWORD} when both are set, else null (anonymous). */
        public static Login fromEnvironment(java.util.Map<String, String> env) {
            String user = env.get("CONTINUUM_MQTT_USERNAME");
            String password = env.get("CONTINUUM_MQTT_PASSWORD");
            return user != null && !user.isBlank() && password != null ? of(user, password) : null;
        }

        @Override
        public String toString() {
            return "Login[" + username + "]";
        }
    }

    /**
     * TLS towards the broker: the broker's certificate must chain to {@code caFile} (PEM, e.g. the {@code ca.crt} of a
     * cert-manager Secret; null: the JVM's trust store) and, unless {@code checkServerName} is false, name the host
     * the link connects to. {@code setting} names where the CA came from, for error messages.
     */
    public record Tls(Path caFile, boolean checkServerName, String setting) {
        /** Environment variable naming the CA file (PEM) that MQTT over TLS trusts. */
        public static final String CA_FILE_ENV = "CONTINUUM_MQTT_CA_FILE";
        /** Environment variable turning the server name check off ({@code false}); on by default. */
        public static final String CHECK_SERVER_NAME_ENV = "CONTINUUM_MQTT_TLS_CHECK_SERVER_NAME";

        public Tls {
            Objects.requireNonNull(setting, "setting");
        }

        /** The JVM's trust store, the server name checked. */
        public static Tls systemTrust() {
            return new Tls(null, true, "the JVM trust store");
        }

        /**
         * Trusts {@code caFile} (null or blank: the JVM's trust store); refuses a file that is missing or unreadable,
         * naming {@code setting} (the flag or key it came from).
         */
        public static Tls trusting(String caFile, boolean checkServerName, String setting) {
            if (caFile == null || caFile.isBlank()) {
                return new Tls(null, checkServerName, setting);
            }
            Path path = Path.of(caFile.trim());
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException(setting + ": CA certificate file " + path + " not found or not readable");
            }
            return new Tls(path, checkServerName, setting);
        }

        /** {@code CONTINUUM_MQTT_CA_FILE} and {@code CONTINUUM_MQTT_TLS_CHECK_SERVER_NAME} (default true). */
        public static Tls fromEnvironment(Map<String, String> env) {
            return fromFlagOrEnvironment(null, null, env);
        }

        /**
         * The CA file of a command line's {@code flag} when it was given ({@code flagValue} not null), else
         * {@code CONTINUUM_MQTT_CA_FILE}; the server name checked unless {@code CONTINUUM_MQTT_TLS_CHECK_SERVER_NAME=false}.
         */
        public static Tls fromFlagOrEnvironment(String flagValue, String flag, Map<String, String> env) {
            boolean checkName = !"false".equalsIgnoreCase(env.getOrDefault(CHECK_SERVER_NAME_ENV, "true").trim());
            return flagValue != null ? trusting(flagValue, checkName, flag)
                    : trusting(env.get(CA_FILE_ENV), checkName, CA_FILE_ENV);
        }
    }

    /**
     * How the link connects. {@code maxMessageBytes} bounds what it accepts (vert.x would otherwise use
     * Netty's decoder limit of 8092 bytes and drop the link on the first large message); {@code ackTimeout}
     * bounds the wait for a PUBACK, which must cover sending the message on the slowest link it is used on.
     */
    public record Options(String host, int port, String clientId, boolean cleanSession, int keepAliveSeconds,
                          Will will, Duration reconnectMin, Duration reconnectMax, Login login,
                          int maxMessageBytes, Duration ackTimeout, Tls tls) {
        /** What the edge link accepted before the limit was an option: ample for tasks and results. */
        public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
        public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(5);

        public Options {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(ackTimeout, "ackTimeout");
            if (keepAliveSeconds < 1) {
                throw new IllegalArgumentException("keep-alive must be at least 1 s");
            }
            if (maxMessageBytes < 1) {
                throw new IllegalArgumentException("maxMessageBytes must be positive");
            }
        }

        public Options(String host, int port, String clientId, boolean cleanSession, int keepAliveSeconds,
                       Will will, Duration reconnectMin, Duration reconnectMax, Login login) {
            this(host, port, clientId, cleanSession, keepAliveSeconds, will, reconnectMin, reconnectMax, login,
                    DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_ACK_TIMEOUT, null);
        }

        public static Options persistent(String host, int port, String clientId) {
            return new Options(host, port, clientId, false, 10, null, Duration.ofMillis(200), Duration.ofSeconds(5), null);
        }

        /**
         * A persistent session with the broker at {@code address} ({@link BrokerAddress}: {@code host:port} plain,
         * {@code mqtts://host:port} TLS trusting {@code tls}, or the JVM's trust store when {@code tls} is null).
         * A CA given for a plain address is refused: the operator meant TLS, and logins would cross in clear text.
         */
        public static Options persistent(String address, String clientId, Tls tls) {
            BrokerAddress broker = BrokerAddress.parse(address);
            Options plain = persistent(broker.host(), broker.port(), clientId);
            if (!broker.tls()) {
                if (tls != null && tls.caFile() != null) {
                    throw new IllegalArgumentException(tls.setting() + " is set but the broker " + address
                            + " is plain MQTT: write mqtts://" + broker.host() + ":" + broker.port() + " to use TLS");
                }
                return plain;
            }
            return plain.withTls(tls != null ? tls : Tls.systemTrust());
        }

        public Options withWill(Will value) {
            return new Options(host, port, clientId, cleanSession, keepAliveSeconds, value, reconnectMin, reconnectMax, login,
                    maxMessageBytes, ackTimeout, tls);
        }

        public Options withKeepAlive(int seconds) {
            return new Options(host, port, clientId, cleanSession, seconds, will, reconnectMin, reconnectMax, login,
                    maxMessageBytes, ackTimeout, tls);
        }

        public Options withCleanSession(boolean value) {
            return new Options(host, port, clientId, value, keepAliveSeconds, will, reconnectMin, reconnectMax, login,
                    maxMessageBytes, ackTimeout, tls);
        }

        /** Logs in with {@code value} (null: anonymous). */
        public Options withLogin(Login value) {
            return new Options(host, port, clientId, cleanSession, keepAliveSeconds, will, reconnectMin, reconnectMax, value,
                    maxMessageBytes, ackTimeout, tls);
        }

        /** Connects with TLS as {@code value} says (null: plain MQTT). */
        public Options withTls(Tls value) {
            return new Options(host, port, clientId, cleanSession, keepAliveSeconds, will, reconnectMin, reconnectMax, login,
                    maxMessageBytes, ackTimeout, value);
        }

        /** The broker as {@link BrokerAddress} writes it: {@code mqtts://host:port} with TLS, else {@code host:port}. */
        public String address() {
            return (tls != null ? "mqtts://" : "") + host + ":" + port;
        }

        /** A PUBACK awaited up to {@code timeout} before the publish fails (the sender may then publish again). */
        public Options withAckTimeout(Duration timeout) {
            return new Options(host, port, clientId, cleanSession, keepAliveSeconds, will, reconnectMin, reconnectMax, login,
                    maxMessageBytes, timeout, tls);
        }

        /** Messages up to {@code bytes} each way, a PUBACK awaited up to {@code timeout} (large chunks on slow links). */
        public Options withLargeMessages(int bytes, Duration timeout) {
            return new Options(host, port, clientId, cleanSession, keepAliveSeconds, will, reconnectMin, reconnectMax, login,
                    bytes, timeout, tls);
        }
    }

    /** A received message; call {@link #ack()} once it is safe (e.g. on disk). */
    public interface Incoming {
        String topic();
        byte[] payload();
        boolean duplicate();
        void ack();
    }

    @FunctionalInterface
    public interface Handler {
        void handle(Incoming message);
    }

    /** Told about the link going up or down (on the event loop; keep it short). */
    public interface ConnectionListener {
        void connected(boolean sessionPresent);
        default void disconnected() {}
        /** The broker refused our user name or password (the link keeps retrying with backoff). */
        default void refused() {}
    }

    public static final class LinkDownException extends RuntimeException {
        public LinkDownException(String message) {
            super(message, null, false, false);
        }
    }

    private record Subscription(String filter, int qos, Handler handler) {}

    private final Vertx vertx;
    /** The Vert.x a {@link #standalone} link made for itself, closed with it; null when the caller's. */
    private final Vertx ownVertx;
    private final Context context;
    private final Options options;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    /** PUBACKs awaited on the current connection; packet ids restart with each connection, so each gets its own map. */
    private volatile Map<Integer, CompletableFuture<Void>> awaitingAck = new ConcurrentHashMap<>();
    private volatile MqttClient client;
    private volatile boolean connected;
    /** Completed while connected; replaced by a fresh one when the link drops ({@link #whenConnected()}). */
    private volatile CompletableFuture<Void> up = new CompletableFuture<>();
    private volatile boolean closed;
    private Duration backoff;
    /** Why the previous connect failed (null after a success): a new reason is logged at WARNING. */
    private String lastFailure;

    public MqttLink(Vertx vertx, Options options) {
        this(vertx, null, options);
    }

    private MqttLink(Vertx vertx, Vertx ownVertx, Options options) {
        this.vertx = vertx;
        this.ownVertx = ownVertx;
        this.context = vertx.getOrCreateContext();
        this.options = options;
        this.backoff = options.reconnectMin();
    }

    /**
     * A link on a Vert.x of its own (one event loop), closed with the link: for code that runs no Vert.x,
     * such as the transfer provider's gateway storage (each half one link).
     */
    public static MqttLink standalone(Options options) {
        Vertx own = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        return new MqttLink(own, own, options);
    }

    public Options options() {
        return options;
    }

    public void onConnection(ConnectionListener listener) {
        listeners.add(listener);
    }

    /** Registers a handler; takes effect now if connected, and on every later connect. */
    public void subscribe(String filter, int qos, Handler handler) {
        subscriptions.add(new Subscription(filter, qos, handler));
        MqttClient current = client;
        if (connected && current != null) {
            context.runOnContext(v -> current.subscribe(filter, qos));
        }
    }

    /** Connects (and keeps reconnecting); the future completes on the first CONNACK. */
    public CompletableFuture<Void> start() {
        CompletableFuture<Void> first = new CompletableFuture<>();
        onConnection(sessionPresent -> first.complete(null));
        context.runOnContext(v -> connect());
        return first;
    }

    public boolean connected() {
        return connected;
    }

    /**
     * Completes when the link is up and the broker has acknowledged its subscriptions (SUBACK): at once
     * while it is, else at the next connect. A request published by anyone after it reaches our handlers;
     * {@link #start()} completes earlier, at the CONNACK.
     */
    public CompletableFuture<Void> whenConnected() {
        return up;
    }

    /** QoS 1 publish; completes on PUBACK, fails with {@link LinkDownException} when not connected or cut first. */
    public CompletableFuture<Void> publish(String topic, byte[] payload, boolean retain) {
        CompletableFuture<Void> acked = new CompletableFuture<>();
        context.runOnContext(v -> {
            MqttClient current = client;
            if (!connected || current == null) {
                acked.completeExceptionally(new LinkDownException("not connected to the broker"));
                return;
            }
            Map<Integer, CompletableFuture<Void>> acks = awaitingAck;
            current.publish(topic, Buffer.buffer(payload), MqttQoS.AT_LEAST_ONCE, false, retain)
                    .onSuccess(id -> {
                        if (client != current || !connected) {
                            acked.completeExceptionally(new LinkDownException("connection lost before PUBACK"));
                            return;
                        }
                        acks.put(id, acked);
                        acked.whenComplete((r, e) -> acks.remove(id, acked));
                    })
                    .onFailure(acked::completeExceptionally);
            // a PUBACK lost with a half-dead connection must not leave the sender waiting forever
            acked.orTimeout(options.ackTimeout().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        });
        return acked;
    }

    /** QoS 0 publish for news that a newer message replaces (heartbeats, progress). */
    public void publishAtMostOnce(String topic, byte[] payload) {
        context.runOnContext(v -> {
            MqttClient current = client;
            if (connected && current != null) {
                current.publish(topic, Buffer.buffer(payload), MqttQoS.AT_MOST_ONCE, false, false);
            }
        });
    }

    /** Clean stop: optionally publishes a retained farewell first, then DISCONNECT (so the will is not sent). */
    public CompletableFuture<Void> stop(String farewellTopic, byte[] farewell) {
        if (closed) {
            return CompletableFuture.completedFuture(null); // stopped or aborted already
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> said = farewellTopic != null && connected
                ? publish(farewellTopic, farewell, true)
                : CompletableFuture.completedFuture(null);
        said.orTimeout(2, java.util.concurrent.TimeUnit.SECONDS).whenComplete((r, e) -> context.runOnContext(v -> {
            closed = true;
            MqttClient current = client;
            if (current != null && current.isConnected()) {
                current.disconnect().onComplete(x -> done.complete(null));
            } else {
                done.complete(null);
            }
        }));
        return done;
    }

    @Override
    public void close() {
        try {
            stop(null, null).get(3, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            closed = true;
        }
        if (ownVertx != null) {
            ownVertx.close();
        }
    }

    /**
     * Drops a {@link #standalone} link's connection without DISCONNECT, as a crash or a cut cable would (the
     * broker then publishes the will). For tests of wills and resumption.
     */
    public void abort() {
        if (ownVertx == null) {
            throw new IllegalStateException("only a standalone link can be aborted: the Vert.x is its caller's");
        }
        closed = true;
        ownVertx.close();
    }

    private void connect() {
        if (closed) {
            return;
        }
        MqttClientOptions mqtt = new MqttClientOptions()
                .setClientId(options.clientId())
                .setCleanSession(options.cleanSession())
                .setKeepAliveInterval(options.keepAliveSeconds())
                .setAutoKeepAlive(true)
                .setMaxInflightQueue(10_000)
                .setMaxMessageSize(options.maxMessageBytes());
        // no Nagle on our side of any broker: a PUBACK or a small result must not wait ~40 ms for the
        // broker's delayed ACK (Vert.x's default is true; said here so it stays so)
        mqtt.setTcpNoDelay(true);
        mqtt.setAutoAck(false);
        mqtt.setConnectTimeout(5_000);
        Tls tls = options.tls();
        if (tls != null) {
            mqtt.setSsl(true);
            if (tls.caFile() != null) {
                mqtt.setTrustOptions(new PemTrustOptions().addCertPath(tls.caFile().toString()));
            }
            // Vert.x checks no name unless told; "HTTPS" is RFC 2818's check (subject alternative names)
            mqtt.setHostnameVerificationAlgorithm(tls.checkServerName() ? "HTTPS" : "");
        }
        if (options.login() != null) {
            mqtt.setUsername(options.login().username()).setPassword(options.login().password().get());
        }
        if (options.will() != null) {
            mqtt.setWillFlag(true)
                    .setWillTopic(options.will().topic())
                    .setWillMessageBytes(Buffer.buffer(options.will().payload()))
                    .setWillQoS(1)
                    .setWillRetain(true);
        }
        MqttClient next = MqttClient.create(vertx, mqtt);
        Map<Integer, CompletableFuture<Void>> acks = new ConcurrentHashMap<>();
        next.publishHandler(this::dispatch);
        next.publishCompletionHandler(id -> {
            CompletableFuture<Void> f = acks.remove(id);
            if (f != null) {
                f.complete(null);
            }
        });
        // the subscriptions made at connect are the first SUBSCRIBE of a connection, so its first SUBACK
        next.subscribeCompletionHandler(ack -> {
            if (client == next) {
                up.complete(null);
            }
        });
        next.closeHandler(v -> linkLost(next));
        next.exceptionHandler(e -> LOG.log(Level.FINE, "MQTT link error", e));
        failAwaitingAcks();
        awaitingAck = acks;
        client = next;
        next.connect(options.port(), options.host()).onComplete(ar -> {
            if (ar.succeeded() && ar.result().code().byteValue() == 0) {
                connected = true;
                backoff = options.reconnectMin();
                if (lastFailure != null) {
                    LOG.info("MQTT link to " + options.address() + " up again");
                    lastFailure = null;
                }
                if (!subscriptions.isEmpty()) {
                    Map<String, Integer> filters = new java.util.LinkedHashMap<>();
                    subscriptions.forEach(s -> filters.merge(s.filter(), s.qos(), Math::max));
                    next.subscribe(filters);
                } else {
                    up.complete(null);
                }
                boolean sessionPresent = ar.result().isSessionPresent();
                listeners.forEach(l -> safely(() -> l.connected(sessionPresent)));
            } else {
                reportFailure(ar.failed() ? describe(ar.cause()) : "refused: " + ar.result().code());
                if (next.isConnected()) {
                    next.disconnect();
                }
                if (refusedLogin(ar)) {
                    listeners.forEach(l -> safely(l::refused));
                }
                scheduleReconnect();
            }
        });
    }

    /**
     * A failed connect at WARNING when its reason differs from the previous attempt's (an operator sees why the link
     * is not up, once, not every retry), else at FINE. Never the password.
     */
    private void reportFailure(String reason) {
        String message = "MQTT connect to " + options.address() + " failed: " + reason;
        if (!reason.equals(lastFailure)) {
            lastFailure = reason;
            LOG.warning(message);
        } else {
            LOG.fine(message);
        }
    }

    private String describe(Throwable cause) {
        Throwable root = cause;
        boolean tlsRefused = false;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            root = t;
            tlsRefused |= t instanceof javax.net.ssl.SSLException || t instanceof java.security.GeneralSecurityException;
        }
        String what = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        Tls tls = options.tls();
        if (tls == null && !(root instanceof java.net.ConnectException)) {
            // a TLS listener answers a plain CONNECT by closing the connection: say what that most likely means
            return what + " (closed before CONNACK: the broker at " + options.host() + ":" + options.port()
                    + " may require TLS; then write mqtts://" + options.host() + ":" + options.port() + ")";
        }
        if (tls != null && tlsRefused) {
            return "TLS handshake failed: " + what + " (the broker's certificate must chain to "
                    + (tls.caFile() != null ? tls.caFile() + ", from " + tls.setting() : "a CA of the JVM trust store")
                    + (tls.checkServerName() ? " and name " + options.host() : "") + ")";
        }
        return what;
    }

    private static boolean refusedLogin(io.vertx.core.AsyncResult<io.vertx.mqtt.messages.MqttConnAckMessage> ar) {
        MqttConnectReturnCode code = ar.succeeded() ? ar.result().code()
                : ar.cause() instanceof MqttConnectionException e ? e.code() : null;
        return code == MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USER_NAME_OR_PASSWORD
                || code == MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED;
    }

    private void linkLost(MqttClient which) {
        if (which != client) {
            return;
        }
        boolean wasConnected = connected;
        connected = false;
        if (up.isDone()) {
            up = new CompletableFuture<>();
        }
        failAwaitingAcks();
        if (wasConnected) {
            listeners.forEach(l -> safely(l::disconnected));
        }
        scheduleReconnect();
    }

    private void failAwaitingAcks() {
        Map<Integer, CompletableFuture<Void>> acks = awaitingAck;
        for (Integer id : List.copyOf(acks.keySet())) {
            CompletableFuture<Void> f = acks.remove(id);
            if (f != null) {
                f.completeExceptionally(new LinkDownException("connection lost before PUBACK"));
            }
        }
    }

    private void scheduleReconnect() {
        if (closed) {
            return;
        }
        long delay = Math.max(1, backoff.toMillis());
        backoff = backoff.multipliedBy(2).compareTo(options.reconnectMax()) > 0 ? options.reconnectMax() : backoff.multipliedBy(2);
        vertx.setTimer(delay, t -> context.runOnContext(v -> {
            if (!connected) {
                connect();
            }
        }));
    }

    private void dispatch(MqttPublishMessage message) {
        byte[] payload = message.payload().getBytes();
        String topic = message.topicName();
        MqttClient from = client;
        boolean[] acked = {false};
        Incoming incoming = new Incoming() {
            @Override public String topic() { return topic; }
            @Override public byte[] payload() { return payload; }
            @Override public boolean duplicate() { return message.isDup(); }
            @Override public void ack() {
                context.runOnContext(v -> {
                    // an ack held past a reconnect belongs to the old session's packet id: never send it on the new one
                    if (!acked[0] && client == from) {
                        acked[0] = true;
                        if (message.qosLevel() != MqttQoS.AT_MOST_ONCE) {
                            message.ack();
                        }
                    }
                });
            }
        };
        boolean handled = false;
        for (Subscription s : subscriptions) {
            if (Topics.matches(s.filter(), topic)) {
                handled = true;
                Subscription sub = s;
                safely(() -> sub.handler().handle(incoming));
            }
        }
        if (!handled) {
            incoming.ack();
        }
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "MQTT handler failed", e);
        }
    }
}
