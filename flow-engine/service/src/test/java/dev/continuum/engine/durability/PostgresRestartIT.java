package dev.continuum.engine.durability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault campaign's PostgreSQL row (issue 18 C, docs/reliability.md): the database restarts while two engines
 * drive runs. The engines stay up, reconnect by themselves, and every run finishes: none lost, each state once, each
 * Action's effect once. The cluster is the test's own embedded one, never the machine's shared server.
 */
class PostgresRestartIT {

    private static final int RUNS = Integer.getInteger("continuum.campaign.pg-runs", 30);
    private static final Duration DOWN = Duration.ofSeconds(Long.getLong("continuum.campaign.pg-down-seconds", 5));

    @TempDir
    Path pgData;

    @Test
    void shouldFinishEveryRunWhenPostgresRestartsUnderLoad() {
        try (OwnPostgres pg = OwnPostgres.start(pgData.resolve("cluster"));
             DurabilityRig rig = DurabilityRig.create("pg-restart", pg.database())) {
            DurabilityFlow flow = DurabilityFlow.threeActions(rig.providersUrl(), 1);
            List<EngineInstance> engines = rig.startEngines("A", "B");
            String flowId = engines.get(0).api().publishFlow("postgres restart", flow.definition());
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                EngineInstance via = engines.get(i % 2);
                runs.add(via.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "pg-" + i), "pg"));
            }
            int expectedEffects = runs.size() * flow.echoStates().size();
            rig.awaitCondition("a third of the echo effects", Duration.ofSeconds(60),
                    () -> rig.effects().size() >= expectedEffects / 3);

            int active = rig.runsByStatus().getOrDefault("ACTIVE", 0);
            Instant stopped = Instant.now();
            pg.stop();
            rig.say("PostgreSQL stopped with %d runs active and %d/%d echo effects; down for %d s", active,
                    rig.effects().size(), expectedEffects, DOWN.toSeconds());
            DurabilityRig.pause(DOWN.toMillis());
            pg.startServer();
            rig.say("PostgreSQL back after %d ms", Duration.between(stopped, Instant.now()).toMillis());

            Duration rest = rig.awaitFinished(engines.get(0).api(), runs, Duration.ofSeconds(180));
            List<String> problems = RunAudit.problems(engines.get(0).api(), runs, flow, rig.effects());
            long succeeded = runs.stream().filter(id -> engines.get(0).api().status(id).equals("SUCCEEDED")).count();
            rig.say("all %d runs finished %d ms after PostgreSQL came back; %d problems", runs.size(), rest.toMillis(),
                    problems.size());
            System.out.printf("CAMPAIGN postgres-restart runs=%d active_at_stop=%d down_s=%d succeeded=%d effects=%d"
                            + " expected_effects=%d problems=%d recovered_ms=%d engines_alive=%d%n", runs.size(), active,
                    DOWN.toSeconds(), succeeded, rig.effects().size(), expectedEffects, problems.size(), rest.toMillis(),
                    engines.stream().filter(EngineInstance::isAlive).count());

            assertThat(active).as("runs in flight when the database went down").isPositive();
            assertThat(engines).as("engines that lived through the restart (none restarted by the test)")
                    .allMatch(EngineInstance::isAlive);
            assertThat(problems).as("runs after a PostgreSQL restart").isEmpty();
            assertThat(rig.effects().size()).isEqualTo(expectedEffects);
        }
    }
}
