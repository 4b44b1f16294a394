package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static dev.continuum.placement.core.policy.Fixtures.occupy;
import static org.assertj.core.api.Assertions.assertThat;

/** Which resource ran out, for a task no node can take. */
class ShortageTest {
    private static final NodeSpec V100 = new NodeSpec("n0", "r0", 2, "V100", 32_768, 8_000, 64_000);

    private static Workload cluster() {
        return new Workload(new ClusterState(Cluster.of("t", List.of(V100))), new FifoOrder(),
                dev.continuum.placement.core.state.PreemptionCosts.FREE, false);
    }

    private static dev.continuum.placement.core.model.Job task(String id, int gpus, int milli, long cpu, long mem) {
        return new dev.continuum.placement.core.model.Job(id, "", "", 0, new Demand(gpus, milli, Set.of(), cpu, mem), 10, 0,
                true, true, gpus, gpus, 0);
    }

    @Test
    void shouldBlameTheGpuShareWhenNoGpuHasRoomForAFractionalTask() {
        Workload w = cluster();
        occupy(w, task("a", 1, 700, 0, 0), 0, 0, 0);
        occupy(w, task("b", 1, 700, 0, 0), 0, 0, 1);

        assertThat(NodeFit.shortage(new Demand(1, 500, Set.of(), 0, 0), w.state())).contains(Shortage.GPU_SHARE);
        assertThat(NodeFit.shortage(new Demand(1, 1000, Set.of(), 0, 0), w.state())).contains(Shortage.WHOLE_GPU);
    }

    @Test
    void shouldBlameTheCpuWhenGpusAreFreeButTheCoresAreTaken() {
        Workload w = cluster();
        occupy(w, task("cpu-hog", 0, 0, 7_000, 0), 0, 0);

        assertThat(NodeFit.shortage(new Demand(1, 300, Set.of(), 2_000, 0), w.state())).contains(Shortage.CPU);
    }

    @Test
    void shouldBlameMemoryAndThenTheGpuModelOnlyWhenEverythingBeforeThemIsThere() {
        Workload w = cluster();

        assertThat(NodeFit.shortage(new Demand(1, 1000, Set.of(), 1_000, 100_000), w.state())).contains(Shortage.MEMORY);
        assertThat(NodeFit.shortage(new Demand(1, 1000, Set.of("A100"), 1_000, 1_000), w.state()))
                .contains(Shortage.GPU_MODEL);
        assertThat(NodeFit.shortage(new Demand(1, 1000, Set.of("V100"), 1_000, 1_000), w.state())).isEmpty();
    }
}
