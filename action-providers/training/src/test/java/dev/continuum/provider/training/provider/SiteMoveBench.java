package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import dev.continuum.slurm.testing.SlurmHarness;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Benchmark, not a test (prints, asserts nothing): an operator's move of a running demo job (20 ms a step) from a
 * local site to another site — {@code local} (a second local backend) or {@code slurm} (the test harness's Slurm,
 * gpu-b) — with the checkpoint carried by the transfer provider in this JVM (sign-in off: the token costs one
 * Keycloak call per 5 minutes, not per move). Measured from {@code POST …/migrate} until the next attempt at the
 * other site reports its first step, the carry alone (transfer started → checksum checked), the bytes carried and
 * the steps redone. Run: docs/benchmarks.md, "Training: moves between sites".
 */
public final class SiteMoveBench {
    public static void main(String[] args) throws Exception {
        String to = args.length > 0 ? args[0] : "local";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir;
        TrainingBackend destination;
        Optional<String> partition = Optional.empty();
        if (to.equals("slurm")) {
            SlurmHarness slurm = SlurmHarness.shared();
            dir = Files.createDirectories(slurm.jobsDir().resolve("site-move-bench"));
            destination = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                    slurm.dir().resolve("etc/token"), "dc-b").withSlurmConf(slurm.conf()), Clock.systemUTC());
            partition = Optional.of(SlurmHarness.PARTITION_B);
        } else {
            dir = Files.createTempDirectory("site-move-bench");
            destination = MoveBetweenSitesTest.local("dc-b");
        }
        System.out.printf("dc-a (local) → dc-b (%s): migrate → first step there (ms), carry (ms), bytes, steps redone; "
                + "%d rounds%n", to, rounds);
        try (SitesFixture sites = new SitesFixture(dir, SitesFixture.sites("dc-a", MoveBetweenSitesTest.local("dc-a"),
                "dc-b", destination), Set.of(), Optional.empty())) {
            List<String> rows = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                String id = sites.start(SitesFixture.demo(100_000));
                sites.await(id, Duration.ofMinutes(3), st -> st.path("details").path("progress").path("step").asInt() >= 120);
                var body = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("site", "dc-b");
                partition.ifPresent(p -> body.put("partition", p));
                long start = System.nanoTime();
                sites.post(id, "migrate", body, "ops", "continuum-admin");
                sites.await(id, Duration.ofMinutes(3), st -> firstStep(sites, id) > 0);
                long ms = (System.nanoTime() - start) / 1_000_000;
                JsonNode d = sites.await(id, Duration.ofSeconds(10), st -> true).path("details");
                JsonNode carried = d.path("history").get(0).path("carried");
                long redone = sites.progress("dc-a", id, 1).getLast().step() - (firstStep(sites, id) - 1);
                rows.add(String.format("  round %d: %d ms, carry %d ms, %d bytes (%s), steps redone %d", r + 1, ms,
                        carried.path("millis").asLong(), carried.path("bytes").asLong(),
                        carried.path("checkpoint").asText(), redone));
                sites.post(id, "cancel", body, "alice", null);
            }
            rows.forEach(System.out::println);
        }
        System.exit(0);
    }

    private static long firstStep(SitesFixture sites, String id) {
        try {
            List<Progress> p = sites.progress("dc-b", id, 2);
            return p.isEmpty() ? 0 : p.getFirst().step();
        } catch (Exception e) {
            return 0; // not started yet
        }
    }
}
