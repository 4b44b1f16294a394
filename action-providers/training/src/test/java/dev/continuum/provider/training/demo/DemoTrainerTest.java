package dev.continuum.provider.training.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.inference.OnnxModel;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class DemoTrainerTest {

    /** The demo trainer as a backend starts it: a child JVM with the protocol's environment. */
    public static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                DemoTrainer.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void learnsTheClassifierAndExportsAModelTheGatewaysOnnxRuntimeLoads(@TempDir Path dir) throws Exception {
        long started = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command("--steps", "300")).redirectErrorStream(true);
        pb.environment().put("CONTINUUM_CHECKPOINT_DIR", dir.resolve("ckpt").toString());
        pb.environment().put("CONTINUUM_OUTPUT_DIR", dir.resolve("out").toString());
        Process p = pb.start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        double seconds = (System.nanoTime() - started) / 1e9;

        assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
        List<Progress> progress = lines.stream().map(Progress::parse).flatMap(java.util.Optional::stream).toList();
        assertThat(progress).hasSize(300);
        double first = progress.getFirst().loss().orElseThrow();
        double last = progress.getLast().loss().orElseThrow();
        assertThat(last).as("loss falls from %s", first).isLessThan(first / 3);
        assertThat(seconds).isLessThan(60);
        assertThat(Checkpoints.list(dir.resolve("ckpt"))).extracting(Checkpoints.Checkpoint::step)
                .containsExactly(200L, 250L, 300L);

        // the exported model answers as the trained one: the gateway would classify with it
        Classifier trained = Classifier.read(Checkpoints.newest(dir.resolve("ckpt")).orElseThrow().path());
        try (OnnxModel model = OnnxModel.load(dir.resolve("out/model.onnx"), false)) {
            int right = 0;
            for (int i = 0; i < 30; i++) {
                float[] probs = model.run(new long[] {1, 4}, Classifier.sample(i)).values();
                assertThat(probs).containsExactly(trained.predict(Classifier.sample(i)), org.assertj.core.data.Offset.offset(1e-4f));
                right += argmax(probs) == Classifier.label(i) ? 1 : 0;
            }
            assertThat(right).isGreaterThanOrEqualTo(24);
        }
    }

    @Test
    void learnsFromADatasetFileNamedInItsEnvironmentAsAFlowGathersIt(@TempDir Path dir) throws Exception {
        Dataset gathered = Dataset.generated(300, 2026);
        StringBuilder json = new StringBuilder("{\"features\": [");
        for (int i = 0; i < gathered.labels().length; i++) {
            float[] f = gathered.features()[i];
            json.append(i == 0 ? "" : ",").append("[").append(f[0]).append(",").append(f[1]).append(",").append(f[2])
                    .append(",").append(f[3]).append("]");
        }
        json.append("], \"labels\": ").append(java.util.Arrays.toString(gathered.labels())).append("}");
        Path data = Files.writeString(dir.resolve("points.json"), json);
        ProcessBuilder pb = new ProcessBuilder(command("--steps", "200")).redirectErrorStream(true);
        pb.environment().put("CONTINUUM_CHECKPOINT_DIR", dir.resolve("ckpt").toString());
        pb.environment().put("CONTINUUM_OUTPUT_DIR", dir.resolve("out").toString());
        pb.environment().put(DemoTrainer.ENV_DATA, data.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("learning 300 points from " + data);
        try (OnnxModel model = OnnxModel.load(dir.resolve("out/model.onnx"), false)) {
            // the middle of each cluster is classified as that cluster
            assertThat(argmax(model.run(new long[] {1, 4}, new float[] {2, 0, -1, 0}).values())).isZero();
            assertThat(argmax(model.run(new long[] {1, 4}, new float[] {-1, 1.73f, 0, 0}).values())).isEqualTo(1);
        }

        Files.writeString(data, "{\"features\": [[1, 2, 3]], \"labels\": [0]}");
        Process bad = new ProcessBuilder(command("--steps", "5", "--data", data.toString())).redirectErrorStream(true)
                .redirectOutput(dir.resolve("bad.log").toFile()).start();
        assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(bad.exitValue()).isNotZero();
        assertThat(Files.readString(dir.resolve("bad.log"))).contains("features[0] must be 4 numbers");
    }

    private static int argmax(float[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            best = v[i] > v[best] ? i : best;
        }
        return best;
    }
}
