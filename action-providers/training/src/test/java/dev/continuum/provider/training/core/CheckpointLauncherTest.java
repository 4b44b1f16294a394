package dev.continuum.provider.training.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.launcher.CheckpointLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bash script that ignores every signal, given the protocol by the launcher's periodic checkpoints. */
class CheckpointLauncherTest {
    private static final String SCRIPT = """
            trap '' USR1 TERM
            n=$(cat "$CONTINUUM_STATE_DIR/step" 2>/dev/null || echo 0)
            while [ "$n" -lt 40 ]; do
              n=$((n+1)); sleep 0.03
              echo "$n" > "$CONTINUUM_STATE_DIR/.step.tmp" && mv "$CONTINUUM_STATE_DIR/.step.tmp" "$CONTINUUM_STATE_DIR/step"
              echo "CONTINUUM_PROGRESS step=$n"
            done
            """;

    @Test
    void aScriptThatCannotHandleSignalsIsPreemptedAndResumesFromTheLaunchersCheckpoint(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("count.sh"), SCRIPT);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CheckpointLauncher.class.getName(),
                "--every-seconds", "0.2", "--", "bash", script.toString()));
        try (LocalCluster cluster = new LocalCluster(dir, 1)) {
            TrainingRequest r = cluster.request(1, 1, 0, false, Duration.ofSeconds(5));
            cluster.submit("sh", new TrainingRequest(command, Optional.empty(), List.of(), Map.of(), List.of(), 1, 1,
                    Optional.empty(), 1, 0, Duration.ofMinutes(5), r.checkpointDir(), r.outputDir(), 0,
                    Optional.empty(), false, Optional.of("local"), Duration.ofSeconds(5)));
            cluster.await("sh", j -> j.state() == JobState.RUNNING && j.step() >= 10, Duration.ofSeconds(60));

            cluster.scheduler.preempt("sh", "operator");
            TrainingJob done = cluster.await("sh", j -> j.state().finished(), Duration.ofSeconds(60));

            assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(done.attempt()).isEqualTo(2);
            assertThat(cluster.log("sh", 1)).contains("checkpointed the script's state");
            assertThat(cluster.log("sh", 2)).contains("restored the script's state from ckpt-");
            List<Progress> before = cluster.progress("sh", 1);
            List<Progress> after = cluster.progress("sh", 2);
            // the script's state is renamed into place before it prints the step, so at most one step goes unprinted
            assertThat(after.getFirst().step()).isBetween(before.getLast().step() + 1, before.getLast().step() + 2);
            assertThat(after.getLast().step()).isEqualTo(40);
        }
    }
}
