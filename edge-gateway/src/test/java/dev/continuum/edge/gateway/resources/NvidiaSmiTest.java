package dev.continuum.edge.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.GpuInfo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvidiaSmiTest {

    @Test
    void shouldReadEachGpuFromQueryOutput() {
        String out = """
                0, NVIDIA A100-SXM4-40GB, 40960, 1024, 37
                1, NVIDIA A100-SXM4-40GB, 40960, 39000, [N/A]
                """;

        List<GpuInfo> gpus = NvidiaSmi.parse(out);

        assertThat(gpus).containsExactly(
                new GpuInfo(0, "NVIDIA A100-SXM4-40GB", 40960, 1024, 37),
                new GpuInfo(1, "NVIDIA A100-SXM4-40GB", 40960, 39000, 0));
        assertThat(gpus.get(1).memoryFreeMb()).isEqualTo(1960);
    }

    @Test
    void shouldReportNoGpusWhenTheToolIsMissing() {
        assertThat(new NvidiaSmi("/nonexistent/nvidia-smi").gpus()).isEmpty();
    }

    @Test
    void shouldSampleCpuMemoryAndDiskFromTheJdk() {
        ResourceProbe.Snapshot s = new ResourceProbe(List::of, Path.of(".")).sample();

        assertThat(s.cpuCores()).isPositive();
        assertThat(s.memoryTotalMb()).isPositive();
        assertThat(s.diskFreeMb()).isPositive();
        assertThat(s.gpus()).isEmpty();
    }
}
