package dev.continuum.placement.service.support;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import java.util.HashMap;
import java.util.Map;

/** The planner fed by the test broker: gateways started by a test appear in its inventory from their heartbeats. */
public class GatewaysProfile extends PlannerTestProfile {

    public static final String SECRET = "planner test fleet secret";
    /** One per JVM: the profile and the test class are loaded by different class loaders, each with its own statics. */
    public static final String TOPIC_ROOT = (String) System.getProperties()
            .computeIfAbsent("planner.test.topic-root", k -> TestBrokers.freshTopics().root());

    @Override
    protected java.nio.file.Path trace() {
        return java.nio.file.Path.of("target", "planner-trace-gateways.jsonl");
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Brokers.Broker broker = TestBrokers.shared();
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("continuum.placement.mqtt-broker", broker.host() + ":" + broker.port());
        config.put("continuum.placement.mqtt-topic-root", TOPIC_ROOT);
        config.put("continuum.placement.edge-secret", SECRET);
        return config;
    }
}
