package dev.continuum.provider.training.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointProtocolTest {

    /** What a move between sites compares: the same checkpoint elsewhere has the same digest, any change another. */
    @Test
    void aDirectoryCheckpointHasTheSameDigestWhereverItLiesAndAnotherWhenAnyFileDiffers(@TempDir Path dir)
            throws Exception {
        Path here = Files.createDirectories(dir.resolve("site-a").resolve(Checkpoints.name(7)));
        Path there = Files.createDirectories(dir.resolve("site-b/deeper").resolve(Checkpoints.name(7)));
        for (Path c : List.of(here, there)) {
            Files.createDirectories(c.resolve("shards"));
            Files.writeString(c.resolve("shards/0.bin"), "weights of rank 0");
            Files.writeString(c.resolve("optimizer"), "moments");
        }
        assertThat(Checkpoints.sha256(here)).hasSize(64).isEqualTo(Checkpoints.sha256(there));

        Files.writeString(there.resolve("shards/0.bin"), "weights of rank 1");
        assertThat(Checkpoints.sha256(there)).isNotEqualTo(Checkpoints.sha256(here));
        Files.writeString(there.resolve("shards/0.bin"), "weights of rank 0");
        Files.move(there.resolve("optimizer"), there.resolve("shards/optimizer"));
        assertThat(Checkpoints.sha256(there)).as("a file moved inside the checkpoint").isNotEqualTo(Checkpoints.sha256(here));
    }

    @Test
    void aHalfWrittenCheckpointIsNeverTheNewest(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(Checkpoints.name(10)), "step 10");
        Path complete = Files.createDirectory(dir.resolve(Checkpoints.name(20)));
        Files.writeString(complete.resolve("weights"), "0123456789");
        Files.writeString(dir.resolve(Checkpoints.temporaryName(30)), "half");
        Files.writeString(dir.resolve("notes.txt"), "not a checkpoint");

        assertThat(Checkpoints.list(dir)).extracting(Checkpoints.Checkpoint::step).containsExactly(10L, 20L);
        assertThat(Checkpoints.newest(dir)).get().satisfies(c -> {
            assertThat(c.step()).isEqualTo(20);
            assertThat(c.sizeBytes()).isEqualTo(10);
        });
        assertThat(Checkpoints.newest(dir.resolve("absent"))).isEmpty();
    }

    @Test
    void progressLinesAreReadAndOtherOutputIsIgnored() {
        assertThat(Progress.parse("CONTINUUM_PROGRESS step=120 loss=0.4375")).contains(Progress.of(120, 0.4375));
        assertThat(Progress.parse("CONTINUUM_PROGRESS step=7").orElseThrow().loss()).isEmpty();
        assertThat(Progress.parse("epoch 3 loss 0.2")).isEmpty();
        assertThat(Progress.parse(Progress.of(5, 1.5).line())).contains(Progress.of(5, 1.5));
    }

    @Test
    void theProtocolVariablesWinOverTheJobsOwnEnvironment() {
        var spec = new TrainingJobSpec("job-1", 2, List.of("python3", "train.py"), Optional.empty(), List.of("--lr", "0.1"),
                Map.of("CONTINUUM_RANK", "99", "SEED", "3"), Optional.empty(), 1, 0, Duration.ofMinutes(5),
                Duration.ofSeconds(10), "/tmp/w", "/tmp/ck", "/tmp/out", 0);

        Map<String, String> env = CheckpointProtocol.environment(spec, 2, 1, 1);

        assertThat(env).containsEntry("CONTINUUM_RANK", "1").containsEntry("CONTINUUM_WORLD_SIZE", "2")
                .containsEntry("CONTINUUM_CHECKPOINT_DIR", "/tmp/ck").containsEntry("CONTINUUM_ATTEMPT", "2")
                .containsEntry("SEED", "3");
        assertThat(spec.commandLine()).containsExactly("python3", "train.py", "--lr", "0.1");
        assertThat(spec.nextAttempt().attempt()).isEqualTo(3);
    }

    @Test
    void onlyRunningOrWaitingRunsAreUnfinished() {
        assertThat(new BackendJobStatus.Pending("queued").finished()).isFalse();
        assertThat(new BackendJobStatus.Checkpointed(Optional.empty()).finished()).isTrue();
        assertThat(new BackendJobStatus.Lost("node gone").finished()).isTrue();
    }
}
