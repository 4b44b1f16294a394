package dev.continuum.placement.service.support;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The planner with no configured sites: two edge gateways and the datacenter inference pool (a gateway runtime in the
 * datacenter role) all join from their heartbeats on the test broker. Every gateway reaches the pool over a 0.1 Gbit/s,
 * 200 ms link; the {@code datacenter} storage endpoint lies at the pool.
 */
public class PoolProfile extends PlannerTestProfile {

    public static final String SECRET = "planner pool test fleet secret";
    /** Fresh per JVM (the shared broker keeps sessions by client id); read through system properties by both class loaders. */
    public static final String TOPIC_ROOT = fresh("planner.pool.topic-root", TestBrokers.freshTopics().root());
    public static final String POOL = fresh("planner.pool.id", TestBrokers.freshId("dc-pool"));
    public static final String EDGE_A = fresh("planner.pool.edge-a", TestBrokers.freshId("edge-a"));
    public static final String EDGE_B = fresh("planner.pool.edge-b", TestBrokers.freshId("edge-b"));

    private static String fresh(String key, String value) {
        return (String) System.getProperties().computeIfAbsent(key, k -> value);
    }

    @Override
    protected Path trace() {
        return Path.of("target", "planner-trace-pool.jsonl");
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Brokers.Broker broker = TestBrokers.shared();
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("continuum.placement.topology", topology().toString());
        config.put("continuum.placement.mqtt-broker", broker.host() + ":" + broker.port());
        config.put("continuum.placement.mqtt-topic-root", TOPIC_ROOT);
        config.put("continuum.placement.edge-secret", SECRET);
        return config;
    }

    private static Path topology() {
        Path file = Path.of("target", "pool-topology-" + POOL + ".json");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, """
                    {"sites": [],
                     "endpoints": {"datacenter": "%s"},
                     "edgeLinks": [{"to": "%s", "bandwidthGbps": 0.1, "latencyMs": 200}]}
                    """.formatted(POOL, POOL));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
