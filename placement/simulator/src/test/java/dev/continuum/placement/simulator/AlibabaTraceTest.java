package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.StandardPolicy;
import dev.continuum.placement.simulator.trace.ClusterReader;
import dev.continuum.placement.simulator.trace.OpenbPodReader;
import dev.continuum.placement.simulator.trace.TraceFormat;
import dev.continuum.placement.simulator.trace.TraceReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Reads the real Alibaba 2023 openb trace from ../shared/traces when it is there. */
class AlibabaTraceTest {
    private static Path traces() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared/traces/alibaba-gpu-v2023");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Test
    void shouldReplayTheWholeOpenbTraceOnItsCluster() {
        Path t = traces();
        assumeTrue(t != null, "../shared/traces/alibaba-gpu-v2023 not present");
        Cluster c = ClusterReader.read(t.resolve("openb_node_list_all_node.csv"), 16);
        assertThat(c.nodes()).hasSize(1523);
        assertThat(c.totalGpus()).isEqualTo(6212);

        try (TraceReader pods = new OpenbPodReader(t.resolve("openb_pod_list_default.csv"), false)) {
            SimulationResult r = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), pods);

            assertThat(r.jobs() + r.filteredRecords()).isEqualTo(8152);
            assertThat(r.filteredRecords()).as("pods still Pending in the trace").isEqualTo(897);
            assertThat(r.finished() + r.rejected()).isEqualTo(r.jobs());
            assertThat(r.skippedLines()).isZero();
        }
    }

    @Test
    void shouldReadEveryPodListOfTheTraceFolderWithoutSkippingALine() throws java.io.IOException {
        Path t = traces();
        assumeTrue(t != null, "../shared/traces/alibaba-gpu-v2023 not present");
        List<Path> files;
        try (var list = Files.list(t)) {
            files = list.filter(f -> f.getFileName().toString().startsWith("openb_pod_list")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path f : files) {
            try (TraceReader r = TraceFormat.detect(f).open(f, false)) {
                long n = 0;
                while (r.hasNext()) {
                    r.next();
                    n++;
                }
                assertThat(n).as(f.getFileName().toString()).isPositive();
            }
        }
    }

    @Test
    void fragmentationAwarePlacementShouldLeaveFewerGpusUnallocatedThanSpreading() {
        Path t = traces();
        assumeTrue(t != null, "../shared/traces/alibaba-gpu-v2023 not present");
        Cluster c = ClusterReader.read(t.resolve("openb_node_list_all_node.csv"), 16);
        List<dev.continuum.placement.core.model.Job> pods = new ArrayList<>();
        try (TraceReader r = new OpenbPodReader(t.resolve("openb_pod_list_default.csv"), false)) {
            r.forEachRemaining(pods::add);
        }

        var fgd = FillExperiment.run(c, pods, () -> ((StandardPolicy) Policies.parse("fgd")).placement(), 1, 1, 5, 105);
        var worst = FillExperiment.run(c, pods, () -> ((StandardPolicy) Policies.parse("worstfit")).placement(), 1, 1, 5, 105);

        assertThat(fgd.unallocatedAt(100)).isLessThan(worst.unallocatedAt(100) / 2);
    }
}
