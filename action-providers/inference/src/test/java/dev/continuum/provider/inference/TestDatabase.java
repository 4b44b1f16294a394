package dev.continuum.provider.inference;

import dev.continuum.edge.broker.Brokers;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/**
 * A fresh database for an engine started by a test: on the PostgreSQL named by
 * CONTINUUM_TEST_DB_HOST/PORT (default the machine's 127.0.0.1:5432) when it answers, else on an
 * embedded one from Maven artifacts, so the test runs on a machine with nothing installed.
 */
record TestDatabase(String host, int port, String name, EmbeddedPostgres embedded) {

    static TestDatabase create(String prefix) throws IOException, SQLException {
        String host = System.getenv().getOrDefault("CONTINUUM_TEST_DB_HOST", "127.0.0.1");
        int port = Integer.parseInt(System.getenv().getOrDefault("CONTINUUM_TEST_DB_PORT", "5432"));
        EmbeddedPostgres embedded = null;
        if (!Brokers.answers(host, port)) {
            embedded = EmbeddedPostgres.builder().start();
            host = "127.0.0.1";
            port = embedded.getPort();
        }
        String name = prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        TestDatabase db = new TestDatabase(host, port, name, embedded);
        db.admin("CREATE DATABASE " + name);
        return db;
    }

    Map<String, String> engineEnvironment() {
        return Map.of("CONTINUUM_DB_HOST", host, "CONTINUUM_DB_PORT", String.valueOf(port),
                "CONTINUUM_DB_NAME", name, "CONTINUUM_DB_USER", "postgres");
    }

    /** Drops the database (and stops an embedded server) so test runs leave nothing behind. */
    void drop() throws IOException, SQLException {
        try {
            admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    private void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", "postgres", "")) {
            c.createStatement().execute(sql);
        }
    }
}
