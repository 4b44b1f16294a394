package dev.continuum.provider.training.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalBackendTest {

    private static TrainingJobSpec spec(Path dir, String script) {
        return new TrainingJobSpec("j", 1, List.of("bash", "-c", script), Optional.empty(), List.of(), Map.of(),
                Optional.empty(), 1, 0, Duration.ofMinutes(1), Duration.ofSeconds(5), dir.resolve("work").toString(),
                dir.resolve("ckpt").toString(), dir.resolve("out").toString(), 0);
    }

    private static BackendJobStatus awaitEnd(LocalBackend backend, BackendJobHandle h) throws Exception {
        return Awaitility.await("job " + h + " to finish").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> backend.status(h), BackendJobStatus::finished);
    }

    @Test
    void aJobThatFinishesItsWorkAfterTheStopSignalHasSucceeded(@TempDir Path dir) throws Exception {
        try (LocalBackend backend = new LocalBackend(LocalBackendConfig.detect(1).withSlots(1))) {
            BackendJobHandle h = backend.submit(spec(dir, "trap '' USR1; echo started; sleep 1; exit 0"),
                    Placement.request("local", "local", 1));
            Path log = dir.resolve("work/attempt-1.log");
            Awaitility.await("the job to run and say it ignores the stop signal (" + log + ")").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(20)).until(() -> backend.status(h) instanceof BackendJobStatus.Running
                            && Files.exists(log) && Files.readString(log).contains("started"));
            backend.requestCheckpoint(h, true);

            assertThat(awaitEnd(backend, h)).isInstanceOf(BackendJobStatus.Succeeded.class);
        }
    }

    @Test
    void aSecondRunWaitsForTheSlotAndStartsWhenTheFirstEnds(@TempDir Path dir) throws Exception {
        try (LocalBackend backend = new LocalBackend(LocalBackendConfig.detect(1).withSlots(1))) {
            BackendJobHandle first = backend.submit(spec(dir.resolve("a"), "sleep 1"), Placement.request("local", "local", 1));
            BackendJobHandle second = backend.submit(spec(dir.resolve("b"), "echo CUDA=$CUDA_VISIBLE_DEVICES"),
                    Placement.request("local", "local", 1));

            assertThat(backend.status(second)).isInstanceOf(BackendJobStatus.Pending.class);
            assertThat(awaitEnd(backend, first)).isInstanceOf(BackendJobStatus.Succeeded.class);
            assertThat(awaitEnd(backend, second)).isInstanceOf(BackendJobStatus.Succeeded.class);
        }
    }
}
