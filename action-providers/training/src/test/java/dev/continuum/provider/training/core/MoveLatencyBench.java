package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import dev.continuum.provider.training.demo.DemoTrainerTest;
import dev.continuum.slurm.testing.SlurmHarness;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Benchmark, not a test (prints, asserts nothing): for preempt, migrate and resize decisions, the time from the
 * decision until the job's next run reports its first step, and the steps redone (last step the stopped run reported
 * minus the checkpoint the next run resumed from). Two trainers: the demo trainer saving on SIGUSR1 (nothing lost),
 * and the same trainer ignoring the signal with a checkpoint every 50 steps (killed after a 2 s grace period).
 * {@code local} or {@code slurm} (the test harness's Slurm; migrate gpu-a → gpu-b). Run: docs/benchmarks.md.
 */
public final class MoveLatencyBench {
    private enum Kind { PREEMPT, MIGRATE, RESIZE }

    public static void main(String[] args) throws Exception {
        String where = args.length > 0 ? args[0] : "local";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("move-bench");
        TrainingBackend backend;
        String from;
        String to;
        if (where.equals("slurm")) {
            SlurmHarness slurm = SlurmHarness.shared();
            dir = Files.createDirectories(slurm.jobsDir().resolve("move-bench"));
            backend = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                    slurm.dir().resolve("etc/token"), "bench").withSlurmConf(slurm.conf()), Clock.systemUTC());
            from = "gpu-a";
            to = "gpu-b";
        } else {
            backend = new LocalBackend(LocalBackendConfig.detect(2).withSlots(2));
            from = "local";
            to = "local";
        }
        TrainingScheduler scheduler = new TrainingScheduler(backend, "priority", Clock.systemUTC(), j -> { },
                dir.resolve("jobs"));
        System.out.printf("%s: decision → first step of the next run (ms), steps redone; %d rounds each%n", where, rounds);
        for (boolean deaf : new boolean[] {false, true}) {
            for (Kind kind : Kind.values()) {
                if (kind == Kind.MIGRATE && from.equals(to)) {
                    continue;
                }
                List<Long> ms = new ArrayList<>();
                List<Long> lost = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    long[] m = once(scheduler, dir, where, kind, deaf, from, to, kind + "-" + deaf + "-" + r);
                    ms.add(m[0]);
                    lost.add(m[1]);
                }
                System.out.printf("  %-8s %-28s ms %s  steps redone %s%n", kind.name().toLowerCase(),
                        deaf ? "(ignores SIGUSR1, ckpt/50)" : "(saves on SIGUSR1)", ms, lost);
            }
        }
        backend.close();
        System.exit(0);
    }

    private static long[] once(TrainingScheduler scheduler, Path dir, String where, Kind kind, boolean deaf, String from,
                               String to, String id) throws Exception {
        List<String> trainer = new ArrayList<>(List.of("--steps", "100000", "--step-millis", "20", "--checkpoint-every",
                deaf ? "50" : "100000"));
        if (deaf) {
            trainer.add("--ignore-signals");
        }
        Path ckpt = dir.resolve("ckpt-" + id);
        TrainingRequest request = new TrainingRequest(DemoTrainerTest.command(trainer.toArray(String[]::new)),
                Optional.empty(), List.of(), Map.of(), List.of(), 1, 2, Optional.empty(), 1, 0, Duration.ofMinutes(30),
                ckpt, dir.resolve("out-" + id), 0, Optional.empty(), true, Optional.of(from), Duration.ofSeconds(2));
        scheduler.admit(TrainingJob.queued(id, request));
        await(scheduler, id, () -> lastStep(where, dir, id, 1) >= 120);
        long start = System.nanoTime();
        switch (kind) {
            case PREEMPT -> scheduler.preempt(id, "bench");
            case MIGRATE -> scheduler.migrate(id, to, "bench");
            case RESIZE -> scheduler.resize(id, 1, "bench");
        }
        await(scheduler, id, () -> lastStep(where, dir, id, 2) > 0);
        long ms = (System.nanoTime() - start) / 1_000_000;
        long reported = lastStep(where, dir, id, 1);
        long resumedFrom = firstStep(where, dir, id, 2) - 1;
        scheduler.cancel(id);
        return new long[] {ms, Math.max(0, reported - resumedFrom)};
    }

    private static void await(TrainingScheduler scheduler, String id, java.util.function.BooleanSupplier done)
            throws Exception {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!done.getAsBoolean()) {
            TrainingJob job = scheduler.job(id).orElseThrow();
            if (System.nanoTime() > end || job.state().finished()) {
                throw new IllegalStateException("timed out or ended: " + job);
            }
            scheduler.poll();
            Thread.sleep(20);
        }
    }

    private static Path log(String where, Path dir, String id, int attempt) {
        Path jobDir = dir.resolve("jobs").resolve(id);
        return where.equals("slurm") ? jobDir.resolve("slurm-" + id + "-a" + attempt + ".out")
                : jobDir.resolve("attempt-" + attempt + ".log");
    }

    private static List<Progress> progress(String where, Path dir, String id, int attempt) {
        try {
            Path f = log(where, dir, id, attempt);
            return Files.exists(f) ? Files.readAllLines(f).stream().map(Progress::parse).flatMap(Optional::stream).toList()
                    : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static long lastStep(String where, Path dir, String id, int attempt) {
        List<Progress> p = progress(where, dir, id, attempt);
        return p.isEmpty() ? 0 : p.getLast().step();
    }

    private static long firstStep(String where, Path dir, String id, int attempt) {
        List<Progress> p = progress(where, dir, id, attempt);
        return p.isEmpty() ? 0 : p.getFirst().step();
    }
}
