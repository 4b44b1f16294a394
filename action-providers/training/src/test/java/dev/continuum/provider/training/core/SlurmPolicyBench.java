package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import dev.continuum.slurm.testing.SlurmHarness;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Benchmark, not a test (prints, asserts nothing): the same jobs (seeded: 1, 2 or 4 GPUs, a fixed number of
 * GPU-seconds each, run as {@code sleep}) all submitted at once to the test harness's 4-GPU Slurm, once through the
 * provider's scheduler with the planner's policy deciding (each job reaches Slurm when the planner places it), once
 * with {@code sbatch} directly (Slurm's priority/backfill scheduler decides; submitted held and released at once). Average job completion time (submit →
 * end) and makespan. Both see a 1-minute time limit per job (Slurm's granularity). Run: docs/benchmarks.md.
 */
public final class SlurmPolicyBench {
    private static final long POLL_MILLIS = Long.getLong("bench.poll-millis", 1000);

    record Job(String id, int gpus, double seconds) {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        double scale = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
        List<String> policies = args.length > 2 ? List.of(args[2].split(",")) : List.of("priority");
        List<Job> jobs = jobs(count, scale);
        double gpuSeconds = jobs.stream().mapToDouble(j -> j.gpus() * j.seconds()).sum();
        SlurmHarness slurm = SlurmHarness.shared();
        Path dir = Files.createDirectories(slurm.jobsDir().resolve("policy-bench"));
        System.out.printf("%d jobs, %.0f GPU-seconds (lower bound on 4 GPUs: %.0f s makespan), load %s%n", count,
                gpuSeconds, gpuSeconds / 4, loadAverage());
        System.out.println("  sbatch (Slurm priority/backfill): " + sbatch(slurm, jobs, dir) + ", load " + loadAverage());
        for (String policy : policies) {
            System.out.println("  planner " + policy + ": " + planner(slurm, jobs, dir, policy) + ", load " + loadAverage());
        }
        System.exit(0);
    }

    /** 1, 2 or 4 GPUs (half, a third, a sixth), 2–8 GPU-seconds × scale each, fixed seed. */
    static List<Job> jobs(int count, double scale) {
        Random r = new Random(14);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double p = r.nextDouble();
            int gpus = p < 0.5 ? 1 : p < 0.83 ? 2 : 4;
            double gpuSeconds = (2 + r.nextInt(7)) * scale;
            jobs.add(new Job("j" + i, gpus, Math.max(0.5, gpuSeconds / gpus)));
        }
        return jobs;
    }

    static String sbatch(SlurmHarness slurm, List<Job> jobs, Path dir) throws Exception {
        slurm.cancelAll();
        // submitted held, then released in one command: 200 sbatch processes on a loaded machine take longer than
        // the jobs, and that start-up is not Slurm's scheduling
        List<String> ids = new ArrayList<>();
        for (Job j : jobs) {
            ids.add(slurm.run("sbatch", "--parsable", "--hold", "--gres=gpu:" + j.gpus(), "-p", "gpu-a", "-t", "1",
                    "-o", "/dev/null", "--chdir=" + dir, "--wrap", "sleep " + j.seconds()).strip());
        }
        long t0 = System.nanoTime();
        slurm.run("scontrol", "release", String.join(",", ids));
        Map<String, Long> submitted = new HashMap<>();
        ids.forEach(id -> submitted.put(id, t0));
        Map<String, Long> ended = new HashMap<>();
        while (ended.size() < submitted.size()) {
            Set<String> queued = new HashSet<>(slurm.run("squeue", "-h", "-o", "%i").lines().map(String::strip).toList());
            long now = System.nanoTime();
            for (String id : submitted.keySet()) {
                if (!queued.contains(id)) {
                    ended.putIfAbsent(id, now);
                }
            }
            Thread.sleep(200);
        }
        return summary(t0, submitted, ended);
    }

    static String planner(SlurmHarness slurm, List<Job> jobs, Path dir, String policy) throws Exception {
        slurm.cancelAll();
        SlurmBackend backend = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                slurm.dir().resolve("etc/token"), "bench").withSlurmConf(slurm.conf()), Clock.systemUTC());
        TrainingScheduler scheduler = new TrainingScheduler(backend, policy, Clock.systemUTC(), j -> { },
                dir.resolve(policy.replace('+', '-')));
        long t0 = System.nanoTime();
        Map<String, Long> submitted = new HashMap<>();
        for (Job j : jobs) {
            scheduler.admit(TrainingJob.queued(j.id(), new TrainingRequest(List.of("/bin/sleep", Double.toString(j.seconds())),
                    Optional.empty(), List.of(), Map.of(), List.of(), j.gpus(), j.gpus(), Optional.empty(), 1, 0,
                    Duration.ofMinutes(1), dir.resolve("ckpt"), dir.resolve("out"), 0, Optional.empty(), false,
                    Optional.of("gpu-a"), Duration.ofSeconds(5))));
            submitted.put(j.id(), t0);
        }
        Map<String, Long> ended = new HashMap<>();
        while (ended.size() < submitted.size()) {
            scheduler.poll();
            long now = System.nanoTime();
            for (String id : submitted.keySet()) {
                if (scheduler.job(id).orElseThrow().state().finished()) {
                    ended.putIfAbsent(id, now);
                }
            }
            Thread.sleep(POLL_MILLIS); // the provider polls its backend once a second
        }
        long failed = submitted.keySet().stream().filter(id -> scheduler.job(id).orElseThrow().state() != JobState.SUCCEEDED).count();
        return summary(t0, submitted, ended) + (failed > 0 ? " (" + failed + " not succeeded)" : "");
    }

    private static String summary(long t0, Map<String, Long> submitted, Map<String, Long> ended) {
        double avg = submitted.keySet().stream().mapToLong(id -> ended.get(id) - submitted.get(id)).average().orElse(0) / 1e9;
        double makespan = (ended.values().stream().mapToLong(Long::longValue).max().orElse(t0) - t0) / 1e9;
        return String.format("average JCT %.1f s, makespan %.1f s", avg, makespan);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
