package dev.continuum.placement.service.support;

import dev.continuum.edge.broker.Brokers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/**
 * A fresh database on a real PostgreSQL for the planner's tests: the machine's (CONTINUUM_TEST_DB_HOST/PORT,
 * default 127.0.0.1:5432) when it answers, else one embedded from Maven artifacts. One per test JVM, so test
 * classes that restart the planner find the decisions an earlier one made.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static Map<String, String> config;

    @Override
    public synchronized Map<String, String> start() {
        if (config == null) {
            config = create();
        }
        return config;
    }

    @Override
    public void stop() {
        // kept for the other test classes; the JVM's exit stops an embedded server
    }

    private static Map<String, String> create() {
        String host = System.getenv().getOrDefault("CONTINUUM_TEST_DB_HOST", "127.0.0.1");
        int port = Integer.parseInt(System.getenv().getOrDefault("CONTINUUM_TEST_DB_PORT", "5432"));
        try {
            if (!Brokers.answers(host, port)) {
                host = "127.0.0.1";
                port = EmbeddedPostgres.builder().start().getPort();
            }
            String name = "planner_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", "postgres", "")) {
                c.createStatement().execute("CREATE DATABASE " + name);
            }
            return Map.of("continuum.db.host", host, "continuum.db.port", String.valueOf(port),
                    "continuum.db.name", name, "continuum.db.user", "postgres");
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("no PostgreSQL for the planner tests: " + e.getMessage(), e);
        }
    }
}
