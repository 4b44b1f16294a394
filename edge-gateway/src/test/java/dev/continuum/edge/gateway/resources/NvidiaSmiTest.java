package dev.continuum.edge.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.GpuInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvidiaSmiTest {

    @TempDir
    Path dir;

    /** {@code nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw --format=csv,noheader,nounits} */
    static final String FOUR_GPUS = """
            0, NVIDIA A100-SXM4-40GB, 37, 1024, 40960, 34, 61.52
            1, NVIDIA A100-SXM4-40GB, 100, 39000, 40960, 71, 398.17
            2, Tesla T4, [N/A], 0, 15360, [N/A], [N/A]
            3, NVIDIA GeForce RTX 3090, 0, 5, 24576, 30, [Not Supported]
            """;

    @Test
    void shouldReadEveryGpuWhenSomeFieldsAreNotAvailable() {
        List<GpuInfo> gpus = NvidiaSmi.parse(FOUR_GPUS);

        assertThat(gpus).containsExactly(
                new GpuInfo(0, "NVIDIA A100-SXM4-40GB", 40960, 1024, 37, 34, 61.52),
                new GpuInfo(1, "NVIDIA A100-SXM4-40GB", 40960, 39000, 100, 71, 398.17),
                new GpuInfo(2, "Tesla T4", 15360, 0, 0, null, null),
                new GpuInfo(3, "NVIDIA GeForce RTX 3090", 24576, 5, 0, 30, null));
        assertThat(gpus.get(1).memoryFreeMb()).isEqualTo(1960);
    }

    @Test
    void shouldSkipLinesThatAreNotGpusAndKeepANameWithACommaWhole() {
        String out = """
                WARNING: infoROM is corrupted at gpu 0000:00:1E.0
                0, Tesla V100-SXM2-16GB, 12, 300, 16384, 45, 43.80
                1, NVIDIA H100 80GB HBM3, rev. B, 3, 10, 81559, 29, 70.01

                """;

        assertThat(NvidiaSmi.parse(out)).containsExactly(
                new GpuInfo(0, "Tesla V100-SXM2-16GB", 16384, 300, 12, 45, 43.80),
                new GpuInfo(1, "NVIDIA H100 80GB HBM3, rev. B", 81559, 10, 3, 29, 70.01));
    }

    @Test
    void shouldSayWhyThereAreNoGpusWhenTheToolIsMissing() {
        NvidiaSmi.Reading reading = new NvidiaSmi("/nonexistent/nvidia-smi", Duration.ofSeconds(5)).read();

        assertThat(reading.gpus()).isEmpty();
        assertThat(reading.problem()).startsWith("/nonexistent/nvidia-smi cannot be run");
    }

    @Test
    void shouldPassOnTheToolsOwnMessageWhenItFails() throws IOException {
        Path smi = script("echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9");

        NvidiaSmi.Reading reading = new NvidiaSmi(smi.toString(), Duration.ofSeconds(5)).read();

        assertThat(reading.gpus()).isEmpty();
        assertThat(reading.problem()).isEqualTo(smi + " exited with 9: NVIDIA-SMI has failed because it couldn't "
                + "communicate with the NVIDIA driver.");
    }

    @Test
    void shouldGiveUpOnAToolThatDoesNotAnswerInTime() throws IOException {
        Path smi = script("exec sleep 30");

        NvidiaSmi.Reading reading = new NvidiaSmi(smi.toString(), Duration.ofMillis(300)).read();

        assertThat(reading.problem()).isEqualTo(smi + " gave no answer within 300 ms");
    }

    @Test
    void shouldReadTheGpusTheToolLists() throws IOException {
        Path smi = script("[ \"$1\" = '--query-gpu=" + NvidiaSmi.QUERY + "' ] && [ \"$2\" = --format=csv,noheader,nounits ] "
                + "&& printf '0, Tesla T4, 5, 300, 15360, 41, 27.43\\n'");

        NvidiaSmi.Reading reading = new NvidiaSmi(smi.toString(), Duration.ofSeconds(5)).read();

        assertThat(reading.ok()).isTrue();
        assertThat(reading.gpus()).containsExactly(new GpuInfo(0, "Tesla T4", 15360, 300, 5, 41, 27.43));
    }

    @Test
    void shouldSampleCpuMemoryAndDiskFromTheJdk() {
        ResourceProbe.Snapshot s = new ResourceProbe(List::of, Path.of(".")).sample();

        assertThat(s.cpuCores()).isPositive();
        assertThat(s.memoryTotalMb()).isPositive();
        assertThat(s.diskFreeMb()).isPositive();
        assertThat(s.gpus()).isEmpty();
    }

    /** A stand-in {@code nvidia-smi}: a shell script. */
    private Path script(String body) throws IOException {
        Path file = Files.createTempFile(dir, "nvidia-smi", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
