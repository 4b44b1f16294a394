package dev.continuum.edge.broker;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Properties;

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
     * messages survive a {@link #restart()}; without one they live in memory.
     */
    public static final class EmbeddedBroker implements Broker {
        private final int port;
        private final Path dataDir;
        private Server server;

        private EmbeddedBroker(int port, Path dataDir) {
            this.port = port;
            this.dataDir = dataDir;
        }

        public static EmbeddedBroker start(int port, Path dataDir) {
            EmbeddedBroker b = new EmbeddedBroker(port, dataDir);
            b.startServer();
            return b;
        }

        private synchronized void startServer() {
            Properties p = new Properties();
            p.setProperty("host", "127.0.0.1");
            p.setProperty("port", Integer.toString(port));
            p.setProperty("allow_anonymous", "true");
            p.setProperty("telemetry_enabled", "false");
            p.setProperty("netty.mqtt.message_size", Integer.toString(16 * 1024 * 1024));
            p.setProperty("websocket_port", "disabled");
            if (dataDir != null) {
                p.setProperty("persistence_enabled", "true");
                p.setProperty("data_path", dataDir.toString());
            } else {
                p.setProperty("persistence_enabled", "false");
            }
            Server s = new Server();
            try {
                s.startServer(new MemoryConfig(p));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded MQTT broker on port " + port, e);
            }
            server = s;
        }

        /** Stops the broker (every client sees its connection drop), as a crash or a restart would. */
        public synchronized void stop() {
            if (server != null) {
                server.stopServer();
                server = null;
            }
        }

        public synchronized void restart() {
            stop();
            startServer();
        }

        @Override public String host() { return "127.0.0.1"; }
        @Override public int port() { return port; }
        @Override public boolean embedded() { return true; }
        @Override public void close() { stop(); }
    }
}
