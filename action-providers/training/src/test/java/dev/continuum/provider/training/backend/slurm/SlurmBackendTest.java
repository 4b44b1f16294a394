package dev.continuum.provider.training.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import dev.continuum.slurm.testing.SlurmHarness;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The Slurm backend against a real single-node Slurm (SlurmHarness: 4 fake GPUs, partitions gpu-a and gpu-b). */
class SlurmBackendTest {
    static SlurmHarness slurm;
    static SlurmBackend backend;
    static Path trainer;
    Path work;

    @BeforeAll
    static void start() throws Exception {
        slurm = SlurmHarness.shared();
        SlurmSettings settings = SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(), slurm.dir().resolve("etc/token"), "test-cluster")
                .withSlurmConf(slurm.conf()).withRetries(2, Duration.ofMillis(200));
        backend = new SlurmBackend(settings, Clock.systemUTC());
        trainer = slurm.jobsDir().resolve("trainer.sh");
        try (InputStream in = SlurmBackendTest.class.getResourceAsStream("/slurm/trainer.sh")) {
            Files.copy(in, trainer, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    @BeforeEach
    void emptyCluster(TestInfo test) throws Exception {
        slurm.cancelAll();
        work = Files.createDirectories(slurm.jobsDir().resolve(test.getTestMethod().orElseThrow().getName()));
    }

    @Test
    void aRunGetsItsGpusAndTheProtocolAndAJobBeyondTheGpusWaitsForResources() throws Exception {
        BackendJobHandle two = backend.submit(spec("two", Map.of("TOTAL", "300")), Placement.request("test-cluster", "gpu-a", 2));
        BackendJobStatus.Running running = awaitRunning(two);
        assertThat(running.placement().partition()).isEqualTo("gpu-a");
        assertThat(running.placement().nodes()).containsExactly("localhost");
        assertThat(running.placement().gpuIds()).hasSize(2);
        Path out = work.resolve("slurm-two-a1.out");
        SlurmHarness.awaitTrue(Duration.ofSeconds(20), "both ranks to start", () -> lines(out, "start ").size() == 2);
        assertThat(lines(out, "start ")).allSatisfy(line -> assertThat(line)
                .contains("world=2", "gpus=" + String.join(",", running.placement().gpuIds()), "attempt=1"))
                .anySatisfy(line -> assertThat(line).contains("rank=0"))
                .anySatisfy(line -> assertThat(line).contains("rank=1"));
        SlurmHarness.awaitTrue(Duration.ofSeconds(20), "progress", () -> progressStep(two) > 0);

        BackendJobHandle other = backend.submit(spec("other", Map.of("TOTAL", "300")), Placement.request("test-cluster", "gpu-b", 2));
        awaitRunning(other);
        BackendJobHandle third = backend.submit(spec("third", Map.of("TOTAL", "300")), Placement.request("test-cluster", "gpu-a", 1));
        SlurmHarness.awaitTrue(Duration.ofSeconds(20), "the third job to wait for Resources",
                () -> status(third) instanceof BackendJobStatus.Pending p && "Resources".equals(p.reason()));

        backend.cancel(two);
        awaitRunning(third);
        SlurmHarness.awaitTrue(Duration.ofSeconds(30), "the cancelled run to show as cancelled", () -> status(two) instanceof BackendJobStatus.Cancelled);
        backend.cancel(two); // idempotent
    }

    @Test
    void migratesToTheOtherPartitionAndResumesFromItsCheckpoint() throws Exception {
        TrainingJobSpec spec = spec("mover", Map.of("TOTAL", "25"));
        BackendJobHandle first = backend.submit(spec, Placement.request("test-cluster", "gpu-a", 1));
        awaitRunning(first);
        SlurmHarness.awaitTrue(Duration.ofSeconds(30), "a few steps", () -> progressStep(first) >= 5);

        backend.requestCheckpoint(first, true);
        SlurmHarness.awaitTrue(Duration.ofSeconds(30), "the checkpointed exit", () -> status(first) instanceof BackendJobStatus.Checkpointed);
        long saved = Checkpoints.newest(Path.of(spec.checkpointDir())).orElseThrow().step();
        assertThat(saved).isGreaterThanOrEqualTo(5);

        BackendJobHandle second = backend.submit(spec.nextAttempt(), Placement.request("test-cluster", "gpu-b", 1));
        assertThat(awaitRunning(second).placement().partition()).isEqualTo("gpu-b");
        SlurmHarness.awaitTrue(Duration.ofSeconds(60), "the moved run to finish", () -> status(second) instanceof BackendJobStatus.Succeeded);
        assertThat(lines(work.resolve("slurm-mover-a2.out"), "start ")).singleElement().asString().contains("step=" + saved, "attempt=2");
        // no step repeated beyond the checkpoint: the second run counts on from it to the end
        assertThat(lines(work.resolve("slurm-mover-a2.out"), "CONTINUUM_PROGRESS step=" + (saved + 1) + " ")).hasSize(1);
        assertThat(Checkpoints.newest(Path.of(spec.checkpointDir())).orElseThrow().step()).isEqualTo(25);
    }

    @Test
    void aRunThatIgnoresTheSignalIsKilledAfterTheGracePeriod() throws Exception {
        BackendJobHandle stubborn = backend.submit(spec("stubborn", Map.of("TOTAL", "600", "IGNORE_USR1", "1")),
                Placement.request("test-cluster", "gpu-a", 1));
        awaitRunning(stubborn);
        SlurmHarness.awaitTrue(Duration.ofSeconds(20), "the trainer to start", () -> progressStep(stubborn) > 0);
        backend.requestCheckpoint(stubborn, true);
        assertThat(status(stubborn)).isInstanceOf(BackendJobStatus.Stopping.class);
        SlurmHarness.awaitTrue(Duration.ofSeconds(40), "the kill after the grace period",
                () -> status(stubborn) instanceof BackendJobStatus.Killed);
    }

    @Test
    void requestsSlurmCannotRunAreRejectedNamingTheField() {
        assertThatThrownBy(() -> backend.submit(spec("nowhere", Map.of()), Placement.request("test-cluster", "no-such", 1)))
                .hasMessageContaining("Invalid partition name")
                .isInstanceOfSatisfying(BackendException.Rejected.class, e -> assertThat(e.field()).isEqualTo("partition"));
        assertThatThrownBy(() -> backend.submit(spec("greedy", Map.of()), Placement.request("test-cluster", "gpu-a", 8)))
                .isInstanceOfSatisfying(BackendException.Rejected.class, e -> assertThat(e.field()).isEqualTo("gpus"));
    }

    @Test
    void inventoryListsBothPartitionsWithFourGpus() throws Exception {
        var inventory = backend.inventory();
        assertThat(inventory.partitions()).extracting(p -> p.name()).containsExactlyInAnyOrder("gpu-a", "gpu-b");
        assertThat(inventory.defaultPartition().orElseThrow().name()).isEqualTo("gpu-a");
        assertThat(inventory.partition("gpu-b").orElseThrow().totalGpus()).isEqualTo(4);
    }

    @Test
    void slurmDownIsReportedAsUnavailableWithWhereAndWhat() {
        SlurmBackend down = new SlurmBackend(SlurmSettings.of(URI.create("http://127.0.0.1:9"), slurm.user(),
                slurm.dir().resolve("etc/token"), "test-cluster").withRetries(2, Duration.ofMillis(10)), Clock.systemUTC());
        assertThatThrownBy(() -> down.submit(spec("lost", Map.of()), Placement.request("test-cluster", "gpu-a", 1)))
                .isInstanceOf(BackendException.Unavailable.class)
                .hasMessageContaining("Slurm at http://127.0.0.1:9 is unavailable")
                .hasMessageContaining("2 attempts")
                .hasMessageContaining("kept and retried");
    }

    @Test
    void aJobOnAFailedNodeIsRequeuedAndFinishesFromItsCheckpoint() throws Exception {
        TrainingJobSpec spec = spec("survivor", Map.of("TOTAL", "40", "CKPT_EVERY", "5"));
        BackendJobHandle job = backend.submit(spec, Placement.request("test-cluster", "gpu-a", 1));
        awaitRunning(job);
        SlurmHarness.awaitTrue(Duration.ofSeconds(30), "a periodic checkpoint", () -> Checkpoints.newest(Path.of(spec.checkpointDir())).isPresent());
        slurm.killSlurmd();
        try {
            SlurmHarness.awaitTrue(Duration.ofSeconds(60), "Slurm to requeue the job",
                    () -> slurm.run("squeue", "-h", "-o", "%T", "-j", SlurmHandle.from(job).jobId()).contains("PENDING"));
        } finally {
            slurm.startSlurmd();
        }
        SlurmHarness.awaitTrue(Duration.ofSeconds(90), "the requeued job to finish", () -> status(job) instanceof BackendJobStatus.Succeeded);
        List<String> starts = lines(work.resolve("slurm-survivor-a1.out"), "start ");
        assertThat(starts).hasSizeGreaterThanOrEqualTo(2);
        assertThat(starts.getLast()).doesNotContain("step=0 ");
    }

    private TrainingJobSpec spec(String id, Map<String, String> env) {
        return new TrainingJobSpec(id, 1, List.of("/bin/bash", trainer.toString()), Optional.empty(), List.of(), env,
                Optional.empty(), 1, 0, Duration.ofMinutes(10), Duration.ofSeconds(3), work.toString(),
                work.resolve("ckpt-" + id).toString(), work.resolve("out-" + id).toString(), 0);
    }

    private static BackendJobStatus status(BackendJobHandle handle) {
        try {
            return backend.status(handle);
        } catch (BackendException e) {
            throw new AssertionError(e);
        }
    }

    private static long progressStep(BackendJobHandle handle) {
        return switch (status(handle)) {
            case BackendJobStatus.Running r -> r.progress().map(p -> p.step()).orElse(0L);
            default -> 0L;
        };
    }

    private static BackendJobStatus.Running awaitRunning(BackendJobHandle handle) {
        AtomicReference<BackendJobStatus.Running> running = new AtomicReference<>();
        SlurmHarness.awaitTrue(Duration.ofSeconds(30), handle + " to run", () -> {
            if (status(handle) instanceof BackendJobStatus.Running r) {
                running.set(r);
                return true;
            }
            return false;
        });
        return running.get();
    }

    private static List<String> lines(Path file, String prefix) {
        try {
            return Files.exists(file) ? Files.readAllLines(file).stream().filter(l -> l.startsWith(prefix)).toList() : List.of();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
