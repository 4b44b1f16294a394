package dev.continuum.engine.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/**
 * A real PostgreSQL for tests: the one configured by CONTINUUM_TEST_DB_HOST/PORT/USER (default:
 * the machine's 127.0.0.1:5432 when it answers), else an embedded one started from Maven artifacts.
 * Each test run gets a fresh database, so runs never see each other's data.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedPostgres embedded;
    private static Map<String, String> config;

    @Override
    public synchronized Map<String, String> start() {
        if (config == null) {
            config = Map.copyOf(connect());
        }
        return config;
    }

    @Override
    public void stop() {
        // The database outlives a single test class; the JVM's exit stops the embedded server.
    }

    public static synchronized Map<String, String> connect() {
        String host = env("CONTINUUM_TEST_DB_HOST", "127.0.0.1");
        int port = Integer.parseInt(env("CONTINUUM_TEST_DB_PORT", "5432"));
        String user = env("CONTINUUM_TEST_DB_USER", "postgres");
        if (System.getenv("CONTINUUM_TEST_DB_EMBEDDED") != null || !answers(host, port)) {
            embedded = startEmbedded();
            host = "127.0.0.1";
            port = embedded.getPort();
            user = "postgres";
        }
        String database = "continuum_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", user, "")) {
            admin.createStatement().execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return Map.of("continuum.db.host", host, "continuum.db.port", String.valueOf(port),
                "continuum.db.name", database, "continuum.db.user", user);
    }

    private static EmbeddedPostgres startEmbedded() {
        if (embedded != null) {
            return embedded;
        }
        try {
            return EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
