package dev.continuum.engine.durability;

import dev.continuum.engine.support.PreviousRelease;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docs/operations.md "Upgrading": a rolling update of two engine replicas from the previous release (the commit in
 * {@code deploy/upgrade/previous-release}, built by {@code deploy/upgrade/build-previous.sh}) to this tree, on one
 * fresh PostgreSQL database, while runs are in flight, as a Deployment with {@code maxSurge: 1} does it:
 * <ol>
 *   <li>two old engines start on the database (their Flyway makes the previous release's schema) and take runs;</li>
 *   <li>a new engine joins: its Flyway migrates the schema forward while the old engines keep serving;</li>
 *   <li>the overlap: the old engines, now on the new schema, publish a flow, start runs and commit turns, and the new
 *       engine runs the flow an old one published;</li>
 *   <li>one old engine is stopped with SIGTERM; a second new engine starts, and the stopped old one starts again on
 *       the new schema (an old pod restarting mid-rollout, or a rollback) and takes runs; both old engines are killed
 *       with SIGKILL while runs are in flight.</li>
 * </ol>
 * Then every run must have SUCCEEDED with a log of one clean pass and each echo action one effect at the provider
 * (no run lost, no effect twice). A migration the previous release cannot live with (one that drops or renames what
 * it reads) fails the overlap: the old engines stop committing, or refuse the requests sent to them.
 */
class UpgradeIT {

    /** Runs started at each step, so each step meets runs in flight. */
    private static final int WAVE = 5;
    private static final String FUTURE_MIGRATIONS = "quarkus.flyway.ignore-future-migrations";

    @Test
    void shouldFinishEveryRunOnceWhenARollingUpdateReplacesThePreviousReleasesEnginesOnTheirDatabase() throws IOException {
        PreviousRelease previous = PreviousRelease.read();
        Optional<Path> oldJar = previous.engineJar();
        String missing = "no engine of the previous release " + previous.commit() + " in " + PreviousRelease.engineDirectory()
                + ": build it with deploy/upgrade/build-previous.sh";
        if (System.getenv("CONTINUUM_REQUIRE_PREVIOUS_ENGINE") != null) {
            assertThat(oldJar).as(missing).isPresent();
        }
        assumeTrue(oldJar.isPresent(), missing);
        String releasedSchema = lastVersion(previous.list(PreviousRelease.MIGRATIONS).stream());
        String todaysSchema;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            todaysSchema = lastVersion(files.map(file -> file.getFileName().toString()));
        }

        try (DurabilityRig rig = DurabilityRig.create("upgrade")) {
            Instant began = Instant.now();
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 2, 6);
            List<String> runs = new ArrayList<>();

            // 1. the previous release, two replicas
            List<String> oldOptions = startsOnANewerSchema(previous) ? List.of() : List.of("-D" + FUTURE_MIGRATIONS + "=true");
            rig.say("previous release %s: %s", previous.commit().substring(0, 8), oldOptions.isEmpty()
                    ? "starts on a newer schema by itself" : "predates " + FUTURE_MIGRATIONS + ", given to it as an operator would");
            List<EngineInstance> old = rig.startEnginesFrom(oldJar.get(), oldOptions, "old-1", "old-2");
            assertThat(schema(rig)).as("the schema the previous release's engines made").isEqualTo(releasedSchema);
            String flowId = old.get(0).api().publishFlow("upgrade: published before", flow.definition());
            startWave(old.get(0), flowId, "before", runs);
            rig.awaitCondition("the first runs' first effects", Duration.ofSeconds(60), () -> rig.effects().size() >= WAVE);

            // 2. a new engine joins and migrates the schema under the running old ones, which take a run every 2 s
            //    meanwhile, so that runs begun on the old schema are in flight when it changes
            Instant surge = Instant.now();
            EngineInstance new1 = rig.launchFrom(rig.engineJar(), List.of(), "new-1");
            for (int i = 0; !new1.isReady(); i++) {
                runs.add(old.get(i % 2).api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "surge-" + i), "surge"));
                DurabilityRig.pause(2000);
            }
            rig.awaitUp(new1);
            int activeAtMigration = rig.runsByStatus().getOrDefault("ACTIVE", 0);
            assertThat(schema(rig)).as("the schema after the new engine's Flyway").isEqualTo(todaysSchema);
            double[] oldTransitions = {old.get(0).api().transitionsCommitted(), old.get(1).api().transitionsCommitted()};
            rig.say("new-1 up and migrated V%s -> V%s in %d ms with %d runs active, runs %s", releasedSchema, todaysSchema,
                    Duration.between(surge, Instant.now()).toMillis(), activeAtMigration, rig.runsByStatus());

            // 3. the overlap: old engines on the new schema beside the new one
            String oldFlowId = old.get(1).api().publishFlow("upgrade: published by the old engine on the new schema",
                    flow.definition());
            startWave(old.get(1), flowId, "old-on-new-schema", runs);
            startWave(new1, oldFlowId, "new-runs-old-engines-flow", runs);
            for (int i = 0; i < old.size(); i++) {
                EngineInstance engine = old.get(i);
                double before = oldTransitions[i];
                assertThat(rig.awaitCondition(engine.instanceId() + " committing on the new schema", Duration.ofSeconds(60),
                        () -> engine.api().transitionsCommitted() > before))
                        .as("%s (previous release) committed run transitions after the migration; its log: %s",
                                engine.instanceId(), engine.process().tail(20)).isTrue();
            }

            // 4. retire the old engines: SIGTERM one; start the second new one, and the stopped old one again on the new
            //    schema (a crashed old pod restarting mid-rollout, or a rollback); SIGKILL both old ones while runs are
            //    in flight
            startWave(old.get(0), flowId, "before-sigterm", runs);
            int activeAtTerm = rig.runsByStatus().getOrDefault("ACTIVE", 0);
            Instant term = Instant.now();
            old.get(0).process().stop(Duration.ofSeconds(60));
            long stopMillis = Duration.between(term, Instant.now()).toMillis();
            rig.say("old-1 stopped by SIGTERM in %d ms with %d runs active", stopMillis, activeAtTerm);
            EngineInstance new2 = rig.launchFrom(rig.engineJar(), List.of(), "new-2");
            EngineInstance oldAgain = rig.launchFrom(oldJar.get(), oldOptions, "old-1");
            rig.awaitUp(new2);
            rig.awaitUp(oldAgain); // fails, with its log, when the previous release cannot start on the new schema
            rig.say("new-2 up; old-1 started again on schema V%s", schema(rig));
            startWave(oldAgain, flowId, "old-restarted-on-new-schema", runs);
            startWave(old.get(1), flowId, "before-sigkill", runs);
            boolean heldByOld = rig.awaitCondition("an old engine holding a run's lease", Duration.ofSeconds(30),
                    () -> rig.liveLeases().values().stream().anyMatch(owner -> owner.startsWith("old-")));
            int activeAtKill = rig.runsByStatus().getOrDefault("ACTIVE", 0);
            old.get(1).kill();
            oldAgain.kill();
            rig.say("old-2 and old-1 killed by SIGKILL with %d runs active (an old engine holding leases: %s)",
                    activeAtKill, heldByOld);

            Duration rest = rig.awaitFinished(new1.api(), runs, Duration.ofSeconds(240));
            List<String> problems = RunAudit.problems(new2.api(), runs, flow, rig.effects());
            int expectedEffects = runs.size() * flow.echoStates().size();
            System.out.printf("UPGRADE from=%s schema=V%s->V%s runs=%d active_at_migration=%d active_at_sigterm=%d active_at_sigkill=%d effects=%d"
                            + " expected_effects=%d problems=%d sigterm_stop_ms=%d finished_ms=%d wall_s=%d%n",
                    previous.commit().substring(0, 8), releasedSchema, todaysSchema, runs.size(), activeAtMigration, activeAtTerm, activeAtKill,
                    rig.effects().size(), expectedEffects, problems.size(), stopMillis, rest.toMillis(),
                    Duration.between(began, Instant.now()).toSeconds());

            assertThat(problems).as("runs across the rolling update (engine logs in target/durability/upgrade-*)").isEmpty();
            assertThat(rig.effects().size()).as("echo effects, one per (run, Action)").isEqualTo(expectedEffects);
            assertThat(activeAtMigration).as("runs begun on the old schema in flight when the new engine had migrated it").isPositive();
            assertThat(activeAtTerm).as("runs in flight when the first old engine was stopped").isPositive();
            assertThat(activeAtKill).as("runs in flight when the old engines were killed").isPositive();
        }
    }

    /**
     * Whether the release's engine starts on a schema with migrations it does not know. Quarkus' Flyway refuses them by
     * default ("Detected applied migration not resolved locally"); engines since this test set
     * {@value #FUTURE_MIGRATIONS}. An older previous release is given the setting, as docs/operations.md "Upgrading"
     * tells operators to; this tree's engine is never given it, so the next release's upgrade tests that it has it.
     */
    private static boolean startsOnANewerSchema(PreviousRelease previous) {
        String properties = new String(previous.read("flow-engine/service/src/main/resources/application.properties"),
                java.nio.charset.StandardCharsets.UTF_8);
        return properties.lines().anyMatch(line -> line.strip().equals(FUTURE_MIGRATIONS + "=true"));
    }

    private static void startWave(EngineInstance via, String flowId, String label, List<String> runs) {
        for (int i = 0; i < WAVE; i++) {
            runs.add(via.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", label + "-" + i), label));
        }
    }

    /** The version of the last migration Flyway applied to the rig's database. */
    private static String schema(DurabilityRig rig) {
        return rig.strings("SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank DESC LIMIT 1").get(0);
    }

    /** The highest version among migration file names ({@code V13__x.sql} → {@code 13}). */
    private static String lastVersion(Stream<String> names) {
        return names.map(name -> name.substring(1, name.indexOf("__"))).max(Comparator.comparingInt(Integer::parseInt))
                .orElseThrow();
    }
}
