package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import dev.continuum.slurm.testing.SlurmHarness;
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
 * Benchmark, not a test (prints, asserts nothing): time from submit to RUNNING for a 1-GPU job, through
 * {@link SlurmBackend} (slurmrestd) and through {@code sbatch} directly, on the test harness's Slurm, both polled
 * every 20 ms. Run: see docs/benchmarks.md "Training on Slurm".
 */
public final class SlurmSubmitLatency {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        SlurmHarness slurm = SlurmHarness.shared();
        SlurmBackend backend = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                slurm.dir().resolve("etc/token"), "bench").withSlurmConf(slurm.conf()), Clock.systemUTC());
        Path work = Files.createDirectories(slurm.jobsDir().resolve("bench"));
        List<Long> ours = new ArrayList<>();
        List<Long> sbatch = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            slurm.cancelAll();
            TrainingJobSpec spec = new TrainingJobSpec("bench" + i, 1, List.of("/bin/sleep", "30"), Optional.empty(), List.of(),
                    Map.of(), Optional.empty(), 1, 0, Duration.ofMinutes(5), Duration.ofSeconds(5), work.toString(),
                    work.resolve("ckpt").toString(), work.resolve("out").toString(), 0);
            long start = System.nanoTime();
            BackendJobHandle handle = backend.submit(spec, Placement.request("bench", "gpu-a", 1));
            while (!(backend.status(handle) instanceof BackendJobStatus.Running)) {
                Thread.sleep(20);
            }
            ours.add((System.nanoTime() - start) / 1_000_000);
            slurm.cancelAll();
            start = System.nanoTime();
            String id = slurm.run("sbatch", "--parsable", "--gres=gpu:1", "-p", "gpu-a", "-o", "/dev/null",
                    "--chdir=" + work, "--wrap", "sleep 30").strip();
            while (!slurm.run("squeue", "-h", "-j", id, "-o", "%T").strip().equals("RUNNING")) {
                Thread.sleep(20);
            }
            sbatch.add((System.nanoTime() - start) / 1_000_000);
        }
        slurm.cancelAll();
        System.out.println("submit→RUNNING, 1 GPU, " + rounds + " rounds (ms)");
        System.out.println("  through SlurmBackend (slurmrestd): " + summary(ours));
        System.out.println("  sbatch + squeue directly:          " + summary(sbatch));
        System.exit(0); // the harness stops Slurm at exit
    }

    private static String summary(List<Long> ms) {
        List<Long> sorted = ms.stream().sorted().toList();
        return "median " + sorted.get(sorted.size() / 2) + ", min " + sorted.getFirst() + ", max " + sorted.getLast()
                + "  all " + ms;
    }
}
