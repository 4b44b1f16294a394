package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task's input: inline, or a tensor file in the data directory and nowhere else. */
class TaskInputsTest {

    @TempDir
    Path tmp;

    private static TaskMessage byRef(String ref) {
        return new TaskMessage("t-1", "cls", null, ref, null, null);
    }

    @Test
    void shouldReadTheTensorFileAnInputRefNamesInTheDataDirectory() throws Exception {
        Path data = tmp.resolve("data");
        Files.createDirectories(data.resolve("frames"));
        Files.write(data.resolve("frames/f-1.json"), Wire.encode(Tensor.of(new long[] {1, 2}, new float[] {5, 6})));

        Tensor input = new TaskInputs(data).resolve(byRef("file:frames/f-1.json"));

        assertThat(input.shape()).containsExactly(1, 2);
        assertThat(input.values()).containsExactly(5f, 6f);
    }

    @Test
    void shouldRefuseASymlinkThatLeadsOutOfTheDataDirectory() throws Exception {
        Path data = tmp.resolve("data");
        Files.createDirectories(data);
        Path secret = Files.write(tmp.resolve("device-credential"), Wire.encode(Tensor.of(new long[] {1}, new float[] {1})));
        Files.createSymbolicLink(data.resolve("escape.json"), secret);

        assertThatThrownBy(() -> new TaskInputs(data).resolve(byRef("file:escape.json")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSayWhichInputRefNamesNoFile() {
        assertThatThrownBy(() -> new TaskInputs(tmp.resolve("data")).resolve(byRef("file:frames/missing.json")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file:frames/missing.json names no file in the data directory");
    }

    @Test
    void shouldRefuseATaskWithNeitherInputNorInputRef() {
        assertThatThrownBy(() -> new TaskInputs(tmp.resolve("data")).resolve(byRef(null)))
                .hasMessageContaining("neither input nor input_ref");
    }
}
