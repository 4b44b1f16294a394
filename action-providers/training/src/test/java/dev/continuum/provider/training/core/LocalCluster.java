package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.demo.DemoTrainerTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/** A scheduler on the real local backend (2 GPU slots, real child processes) and the real planner. */
final class LocalCluster implements AutoCloseable {
    final Path dir;
    final LocalBackend backend;
    final TrainingScheduler scheduler;

    LocalCluster(Path dir, int slots) throws Exception {
        this(dir, slots, "priority");
    }

    LocalCluster(Path dir, int slots, String policy) throws Exception {
        this.dir = dir;
        this.backend = new LocalBackend(LocalBackendConfig.detect(slots).withSlots(slots));
        this.scheduler = new TrainingScheduler(backend, policy, Clock.systemUTC(), job -> { }, dir.resolve("jobs"));
    }

    /** A demo trainer job; {@code trainerArgs} go to the trainer. */
    TrainingRequest request(int gpusMin, int gpusMax, int priority, boolean elastic, Duration grace, String... trainerArgs) {
        return new TrainingRequest(DemoTrainerTest.command(trainerArgs), Optional.empty(), List.of(), Map.of(), List.of(),
                gpusMin, gpusMax, Optional.empty(), 1, 0, Duration.ofMinutes(10),
                dir.resolve("ckpt-" + System.nanoTime()), dir.resolve("out-" + System.nanoTime()), priority,
                Optional.empty(), elastic, Optional.of("local"), grace);
    }

    TrainingJob submit(String id, TrainingRequest request) {
        scheduler.admit(TrainingJob.queued(id, request));
        return job(id);
    }

    TrainingJob job(String id) {
        return scheduler.job(id).orElseThrow();
    }

    /** Polls as the provider does until {@code done} holds for the job. */
    TrainingJob await(String id, Predicate<TrainingJob> done, Duration timeout) {
        return Awaitility.await("job " + id + " to hold the awaited condition").atMost(timeout)
                .pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> {
                    scheduler.poll();
                    return job(id);
                }, done);
    }

    /** The progress lines one attempt printed. */
    List<Progress> progress(String id, int attempt) throws IOException {
        return log(id, attempt).lines().map(Progress::parse).flatMap(Optional::stream).toList();
    }

    /** True once the attempt has printed progress (the run is past its start-up). */
    boolean reported(String id, int attempt) {
        try {
            return Files.exists(dir.resolve("jobs").resolve(id).resolve("attempt-" + attempt + ".log"))
                    && !progress(id, attempt).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    String log(String id, int attempt) throws IOException {
        return Files.readString(dir.resolve("jobs").resolve(id).resolve("attempt-" + attempt + ".log"));
    }

    @Override
    public void close() {
        backend.close();
    }
}
