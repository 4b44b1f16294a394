package dev.continuum.provider.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

/**
 * A fresh database: on the PostgreSQL named by CONTINUUM_TEST_DB_HOST/PORT (default the machine's
 * 127.0.0.1:5432) when it answers, else on an embedded one from Maven artifacts.
 */
public record TestDatabase(String host, int port, String name, EmbeddedPostgres embedded) implements AutoCloseable {

    public static TestDatabase create(String prefix) throws IOException, SQLException {
        String host = System.getenv().getOrDefault("CONTINUUM_TEST_DB_HOST", "127.0.0.1");
        int port = Integer.parseInt(System.getenv().getOrDefault("CONTINUUM_TEST_DB_PORT", "5432"));
        EmbeddedPostgres embedded = null;
        if (!answers(host, port)) {
            embedded = EmbeddedPostgres.builder().start();
            host = "127.0.0.1";
            port = embedded.getPort();
        }
        String name = prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        TestDatabase db = new TestDatabase(host, port, name, embedded);
        db.admin("CREATE DATABASE " + name);
        return db;
    }

    public String url() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + name;
    }

    @Override
    public void close() throws IOException, SQLException {
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

    private static boolean answers(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
