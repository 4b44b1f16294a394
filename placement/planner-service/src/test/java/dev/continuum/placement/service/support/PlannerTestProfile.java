package dev.continuum.placement.service.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.Map;

/** The planner as deployed: real PostgreSQL, real Keycloak, the test topology (gw-1, dc-pool, dc-train). */
public class PlannerTestProfile implements QuarkusTestProfile {

    /** The planner trace every test of this profile records into (PlannerReplayTest replays it). */
    public static final Path TRACE = Path.of((String) System.getProperties().computeIfAbsent("planner.test.trace",
            k -> "target/planner-trace-" + UUID.randomUUID() + ".jsonl")); // one per JVM, whichever class loader asks

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("continuum.placement.topology", "src/test/resources/test-topology.json",
                "continuum.placement.trace", trace().toString(),
                "continuum.placement.policy", "fifo+green",
                "continuum.placement.carbon", carbonSeries().toString());
    }

    /** dc-train: 500 g/kWh until an hour from now, 100 for the hour after, 500 again (jobs without deadlines never wait). */
    public static Path carbonSeries() {
        Path csv = Path.of("target", "carbon-" + ProcessHandle.current().pid() + ".csv");
        if (!java.nio.file.Files.exists(csv)) {
            long now = java.time.Instant.now().getEpochSecond();
            try {
                java.nio.file.Files.writeString(csv, "site,time,value\n" + "dc-train," + (now - 3600) + ",500\n"
                        + "dc-train," + (now + 3600) + ",100\n" + "dc-train," + (now + 7200) + ",500\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return csv;
    }

    protected Path trace() {
        return TRACE;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(PostgresResource.class), new TestResourceEntry(KeycloakResource.class));
    }
}
