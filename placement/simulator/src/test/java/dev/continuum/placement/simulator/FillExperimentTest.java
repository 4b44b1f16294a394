package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.policy.BestFit;
import dev.continuum.placement.core.policy.Shortage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** FGD's fill experiment says, for every task it drops, which resource ran out. */
class FillExperimentTest {
    private static Job task(String id, int milli, long cpu) {
        return new Job(id, "", "", 0, new Demand(1, milli, Set.of(), cpu, 1_024), 0, 0, true, true, 1, 1, 0);
    }

    @Test
    void shouldBlameTheCpuWhenSharedGpuTasksUseUpTheCoresBeforeTheGpus() {
        // 8 GPUs but 4 cores: quarter-GPU tasks asking for a core each run out of CPU at 4 tasks (1 GPU)
        Cluster c = Cluster.of("cpu-poor", List.of(new NodeSpec("n0", "r0", 8, "T4", 16_384, 4_000, 512_000)));

        FillExperiment.Result r = FillExperiment.run(c, List.of(task("t", 250, 1_000)), BestFit::new, 1, 1, 10, 100);

        assertThat(r.failedTasks()).isEqualTo(28);
        assertThat(r.droppedFor(Shortage.CPU)).isEqualTo(28);
        assertThat(r.droppedFor(Shortage.GPU_SHARE)).isZero();
        assertThat(r.droppedGpus().get(Shortage.CPU)).isEqualTo(7.0); // 28 quarter-GPU tasks
        assertThat(r.unallocatedAt(100)).isEqualTo(7);
    }

    @Test
    void shouldBlameTheGpuShareWhenOnlySliversAreLeft() {
        Cluster c = Cluster.of("gpu-poor", List.of(new NodeSpec("n0", "r0", 2, "T4", 16_384, 64_000, 512_000)));

        FillExperiment.Result r = FillExperiment.run(c, List.of(task("t", 600, 1_000)), BestFit::new, 1, 1, 10, 120);

        assertThat(r.droppedFor(Shortage.GPU_SHARE)).isEqualTo(r.failedTasks()).isPositive();
        assertThat(r.dropped().get(Shortage.GPU_SHARE)).isSorted();
    }
}
