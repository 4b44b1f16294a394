package dev.continuum.engine.durability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * A PostgreSQL cluster of the test's own (embedded, from Maven artifacts) on a fixed port and data directory, so
 * the test can stop and start it under load — never the machine's shared server, which others' tests use.
 */
final class OwnPostgres implements AutoCloseable {

    private static final String DATABASE = "continuum_fault";

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres server;

    private OwnPostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
    }

    static OwnPostgres start(Path dataDir) {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
        OwnPostgres pg = new OwnPostgres(dataDir, port);
        pg.startServer();
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "")) {
            admin.createStatement().execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database: " + e.getMessage(), e);
        }
        return pg;
    }

    /** What {@link DurabilityRig#create(String, Map)} takes, as {@code PostgresResource.connect()} answers it. */
    Map<String, String> database() {
        return Map.of("continuum.db.host", "127.0.0.1", "continuum.db.port", String.valueOf(port),
                "continuum.db.name", DATABASE, "continuum.db.user", "postgres");
    }

    /** A fast shutdown (open connections are cut, as in a failover or a restart by an operator). */
    void stop() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the test's PostgreSQL", e);
        }
        server = null;
    }

    /** The same cluster again: same data directory, same port. */
    void startServer() {
        try {
            server = EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false).setPort(port)
                    .setRegisterShutdownHook(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test's PostgreSQL on port " + port, e);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            stop();
        }
    }
}
