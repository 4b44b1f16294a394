package dev.continuum.engine.durability;

import dev.continuum.engine.support.PostgresResource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docs/operations.md "Back up and restore": a logical backup taken with {@code pg_dump} while runs are in flight,
 * restored with {@code pg_restore} into a fresh database after the old one is gone, and an engine started on it.
 * Every run the backup holds resumes and succeeds, each run's log showing one clean pass. Work done after the dump
 * is not in it and is done again (counted and printed: an action started after the dump calls its provider again
 * under a new request id); docs/operations.md says so and what avoids it (continuous archiving).
 *
 * Needs the PostgreSQL client tools of the server's major version (Debian's {@code postgresql-client}); skipped,
 * saying so, where they are missing (e.g. on the embedded PostgreSQL, whose binaries have no {@code pg_dump}).
 */
class BackupRestoreIT {

    private static final int RUNS = 12;

    @Test
    void shouldResumeEveryRunOfADumpTakenMidRunOnceRestoredIntoAFreshDatabase() throws Exception {
        Map<String, String> original = PostgresResource.connect();
        Optional<Path> tools = clientToolsFor(original);
        assumeTrue(tools.isPresent(), "needs pg_dump and pg_restore of the server's major version (apt-get install postgresql-client)");

        try (DurabilityRig rig = DurabilityRig.create("backup-restore", original)) {
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 2, 2);
            EngineInstance first = rig.startEngine("A");
            String flowId = first.api().publishFlow("backup and restore", flow.definition());
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                runs.add(first.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "backup-" + i), "backup"));
            }
            int expectedEffects = runs.size() * flow.echoStates().size();
            rig.awaitCondition("a quarter of the echo effects", Duration.ofSeconds(60),
                    () -> rig.effects().size() >= expectedEffects / 4);

            Path dump = Files.createTempFile("continuum-backup-", ".dump");
            run(tools.get().resolve("pg_dump"), "--format=custom", "--file=" + dump, "--host=" + original.get("continuum.db.host"),
                    "--port=" + original.get("continuum.db.port"), "--username=" + original.get("continuum.db.user"),
                    original.get("continuum.db.name"));
            Map<String, Integer> inTheDump = rig.runsByStatus();
            int effectsAtDump = rig.effects().size();
            first.kill(); // the database machine is lost, and the engine with it
            rig.say("dumped %d bytes with runs %s and %d/%d echo effects; engine A killed", Files.size(dump), inTheDump,
                    effectsAtDump, expectedEffects);

            Map<String, String> restored = new HashMap<>(original);
            restored.put("continuum.db.name", "continuum_restored_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
            try (Connection admin = DriverManager.getConnection("jdbc:postgresql://" + original.get("continuum.db.host") + ":"
                    + original.get("continuum.db.port") + "/postgres", original.get("continuum.db.user"), "")) {
                admin.createStatement().execute("CREATE DATABASE " + restored.get("continuum.db.name"));
            }
            run(tools.get().resolve("pg_restore"), "--no-owner", "--exit-on-error", "--host=" + restored.get("continuum.db.host"),
                    "--port=" + restored.get("continuum.db.port"), "--username=" + restored.get("continuum.db.user"),
                    "--dbname=" + restored.get("continuum.db.name"), dump.toString());
            Files.delete(dump);
            EngineInstance second = rig.useDatabase(restored).startEngine("B");

            Duration rest = rig.awaitFinished(second.api(), runs, Duration.ofSeconds(180));
            List<String> problems = RunAudit.problems(second.api(), runs, flow, rig.effects());
            List<String> runProblems = problems.stream().filter(p -> p.startsWith("run ")).toList();
            System.out.printf("BACKUP-RESTORE runs=%d in_dump=%s effects_at_dump=%d effects=%d expected_effects=%d"
                            + " redone_effects=%d run_problems=%d finished_ms=%d%n", runs.size(), inTheDump, effectsAtDump,
                    rig.effects().size(), expectedEffects, rig.effects().size() - expectedEffects, runProblems.size(),
                    rest.toMillis());

            assertThat(inTheDump.getOrDefault("ACTIVE", 0)).as("runs in flight when the backup was taken").isPositive();
            assertThat(runProblems).as("every run of the backup succeeded on the restored database, one clean pass each")
                    .isEmpty();
            assertThat(rig.effects().size()).as("each echo action took effect at least once").isGreaterThanOrEqualTo(expectedEffects);
        }
    }

    /** The directory of pg_dump and pg_restore whose major version is the server's (Debian keeps one per version). */
    private static Optional<Path> clientToolsFor(Map<String, String> database) throws SQLException {
        int major;
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + database.get("continuum.db.host") + ":"
                + database.get("continuum.db.port") + "/" + database.get("continuum.db.name"), database.get("continuum.db.user"), "")) {
            var rows = c.createStatement().executeQuery("SHOW server_version_num");
            rows.next();
            major = rows.getInt(1) / 10000;
        }
        Path bin = Path.of("/usr/lib/postgresql", String.valueOf(major), "bin");
        return Files.isExecutable(bin.resolve("pg_dump")) && Files.isExecutable(bin.resolve("pg_restore"))
                ? Optional.of(bin) : Optional.empty();
    }

    private static void run(Path tool, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(tool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0).as(tool.getFileName() + " failed: " + out).isTrue();
    }
}
