package dev.continuum.edge.broker;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.broker.security.IAuthenticator;
import io.moquette.broker.security.IAuthorizatorPolicy;
import io.moquette.broker.subscriptions.Topic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * Finds an MQTT broker: the machine's (e.g. Mosquitto on 127.0.0.1:1883) when it answers, else an
 * embedded Moquette broker from Maven Central. Used by local {@code up}, the demo and the tests.
 */
public final class Brokers {

    /** Where a broker listens; {@code close()} stops it if we started it. */
    public interface Broker extends AutoCloseable {
        String host();
        int port();
        boolean embedded();
        @Override void close();
    }

    /**
     * The largest message the embedded broker passes on: the transfer provider's gateway storage frame
     * (a 64 MiB chunk and its header, {@code StorageWire.MAX_FRAME}); tasks and results are far smaller.
     */
    public static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024 + 64 * 1024;

    private Brokers() {}

    public static boolean answers(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The machine broker at host:port if it answers, else a fresh embedded one on a free port. */
    public static Broker machineOrEmbedded(String host, int port) {
        if (answers(host, port)) {
            return new External(host, port);
        }
        return EmbeddedBroker.start(freePort(), null);
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record External(String host, int port) implements Broker {
        @Override public boolean embedded() { return false; }
        @Override public void close() {}
    }

    /**
     * Moquette in this JVM. With a {@code dataDir} its sessions, queued QoS 1 messages and retained
     * messages survive a {@link #restart()}; without one they live in memory. With a {@link BrokerAccess}
     * it refuses anonymous and unknown clients and confines each device to its own topics.
     */
    public static final class EmbeddedBroker implements Broker {
        private final Listener listener;
        private final int port;
        private final Path dataDir;
        private final BrokerAccess access;
        private Server server;

        private EmbeddedBroker(Listener listener, int port, Path dataDir, BrokerAccess access) {
            this.listener = Objects.requireNonNull(listener, "listener");
            this.port = port;
            this.dataDir = dataDir;
            this.access = access;
        }

        /** Open to anyone: for tests and demos on a loopback port only. */
        public static EmbeddedBroker start(int port, Path dataDir) {
            return start(Listener.LOOPBACK, port, dataDir);
        }

        /** Open to anyone, listening as {@code listener} says (e.g. TLS only). */
        public static EmbeddedBroker start(Listener listener, int port, Path dataDir) {
            EmbeddedBroker b = new EmbeddedBroker(listener, port, dataDir, null);
            b.startServer();
            return b;
        }

        /** Only the clients {@code access} lets in, each on the topics it allows (ADR 0011); plain, on loopback. */
        public static EmbeddedBroker startSecured(int port, Path dataDir, BrokerAccess access) {
            return startSecured(Listener.LOOPBACK, port, dataDir, access);
        }

        /** As {@link #startSecured(int, Path, BrokerAccess)}, listening as {@code listener} says. */
        public static EmbeddedBroker startSecured(Listener listener, int port, Path dataDir, BrokerAccess access) {
            EmbeddedBroker b = new EmbeddedBroker(listener, port, dataDir, Objects.requireNonNull(access, "access"));
            b.startServer();
            return b;
        }

        private synchronized void startServer() {
            keepMoquetteTraceOff();
            Properties p = new Properties();
            p.setProperty("host", listener.host());
            if (listener.tls() == null) {
                p.setProperty("port", Integer.toString(port));
            } else {
                // TLS only: no plain listener at all, so a plain client (and its login in clear text) is refused
                p.setProperty("port", "disabled");
                p.setProperty("ssl_port", Integer.toString(port));
            }
            p.setProperty("allow_anonymous", Boolean.toString(access == null));
            p.setProperty("telemetry_enabled", "false");
            p.setProperty("netty.mqtt.message_size", Integer.toString(MAX_MESSAGE_BYTES));
            p.setProperty("websocket_port", "disabled");
            // no Nagle: a QoS 1 exchange is small packets answered by small packets, and Nagle's wait for the
            // peer's delayed ACK adds ~40 ms to each (what a stock Mosquitto, set_tcp_nodelay false, costs).
            // Moquette 0.17 defaults to true; said here so that no upgrade or default change can bring it back.
            p.setProperty("netty.tcp_nodelay", "true");
            // each message is written out at once, not gathered for a later flush
            p.setProperty("immediate_buffer_flush", "true");
            if (dataDir != null) {
                p.setProperty("persistence_enabled", "true");
                p.setProperty("data_path", dataDir.toString());
            } else {
                p.setProperty("persistence_enabled", "false");
            }
            Server s = new Server();
            io.moquette.broker.ISslContextCreator tls = listener.tls() == null ? null : serverContext(listener.tls());
            try {
                if (access == null && tls == null) {
                    s.startServer(new MemoryConfig(p));
                } else if (access == null) {
                    s.startServer(new MemoryConfig(p), List.of(), tls, null, null);
                } else {
                    s.startServer(new MemoryConfig(p), List.of(), tls, new Authenticator(access), new Policy(access));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded MQTT broker on port " + port, e);
            }
            server = s;
        }

        /**
         * Moquette 0.17 empties the payload of every message it sends while its logger has TRACE on
         * ({@code DebugUtils.payload2Str} leaves the reader index at the end): every subscriber would get empty
         * messages. Turned down through java.util.logging where that is the backend (JBoss LogManager, Quarkus);
         * refused where it cannot be, rather than corrupt every message.
         */
        private static void keepMoquetteTraceOff() {
            org.slf4j.Logger sending = org.slf4j.LoggerFactory.getLogger("io.moquette.broker.MQTTConnection");
            if (!sending.isTraceEnabled()) {
                return;
            }
            MOQUETTE_LOG.setLevel(java.util.logging.Level.INFO);
            if (sending.isTraceEnabled()) {
                throw new IllegalStateException("the embedded MQTT broker cannot run with TRACE logging on io.moquette:"
                        + " Moquette 0.17 then sends every message with an empty payload; set io.moquette to DEBUG or less");
            }
        }

        /** Netty's server context from the PEM pair, read once per start (a renewed certificate is read at restart). */
        private static io.moquette.broker.ISslContextCreator serverContext(PemKeyPair pair) {
            javax.net.ssl.KeyManagerFactory keys = pair.keyManagers();
            return () -> {
                try {
                    return io.netty.handler.ssl.SslContextBuilder.forServer(keys)
                            .sslProvider(io.netty.handler.ssl.SslProvider.JDK)
                            .protocols("TLSv1.3", "TLSv1.2").build();
                } catch (javax.net.ssl.SSLException e) {
                    throw new IllegalStateException("cannot build the broker's TLS context from " + pair.certFile(), e);
                }
            };
        }

        /** Held so that the level set on it is not lost with a collected logger. */
        private static final java.util.logging.Logger MOQUETTE_LOG = java.util.logging.Logger.getLogger("io.moquette");

        /** Stops the broker (every client sees its connection drop), as a crash or a restart would. */
        public synchronized void stop() {
            if (server != null) {
                server.stopServer();
                server = null;
            }
        }

        /**
         * Drops the connections of these devices (gateway link and storage half): a revoked device is
         * refused when it tries to come back. Returns how many connections were dropped.
         */
        public synchronized int disconnectDevices(Collection<String> deviceIds) {
            if (server == null || deviceIds.isEmpty()) {
                return 0;
            }
            Set<String> connected = new HashSet<>();
            server.listConnectedClients().forEach(c -> connected.add(c.getClientID()));
            int dropped = 0;
            for (String id : deviceIds) {
                for (String client : List.of(id, id + BrokerAccess.STORAGE_CLIENT_SUFFIX)) {
                    if (connected.contains(client) && server.disconnectClient(client)) {
                        dropped++;
                    }
                }
            }
            return dropped;
        }

        public synchronized void restart() {
            stop();
            startServer();
        }

        @Override public String host() { return listener.host().equals("0.0.0.0") ? "127.0.0.1" : listener.host(); }
        @Override public int port() { return port; }
        @Override public boolean embedded() { return true; }

        /** How clients reach it: {@code mqtts://host:port} when it listens with TLS, else {@code host:port}. */
        public String address() {
            return (listener.tls() != null ? "mqtts://" : "") + host() + ":" + port;
        }
        @Override public void close() { stop(); }
    }

    /**
     * Where the embedded broker listens: {@code host} (127.0.0.1 by default; 0.0.0.0 for every interface) and, with
     * {@code tls}, MQTT over TLS only (no plain listener: a plain client is refused).
     */
    public record Listener(String host, PemKeyPair tls) {
        /** Plain MQTT on 127.0.0.1: logins never leave the machine. */
        public static final Listener LOOPBACK = new Listener("127.0.0.1", null);

        public Listener {
            Objects.requireNonNull(host, "host");
        }
    }

    /** Moquette's CONNECT hook, asking {@link BrokerAccess}. */
    private record Authenticator(BrokerAccess access) implements IAuthenticator {
        @Override
        public boolean checkValid(String clientId, String username, byte[] password) {
            return access.mayConnect(clientId, username, password);
        }
    }

    /** Moquette's PUBLISH/SUBSCRIBE hook (it passes the subscription's filter as the topic). */
    private record Policy(BrokerAccess access) implements IAuthorizatorPolicy {
        @Override
        public boolean canWrite(Topic topic, String user, String client) {
            return access.mayPublish(user, client, topic.toString());
        }

        @Override
        public boolean canRead(Topic topic, String user, String client) {
            return access.maySubscribe(user, client, topic.toString());
        }
    }
}
