package dev.continuum.placement.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Jobs the simulator leaves out because no empty cluster of this shape could ever run them. */
class UnrunnableJobTest {
    /** Two V100 nodes of 4 GPUs, 64 cores and 256 GiB each. */
    private static final Workload WORKLOAD = new Workload(new ClusterState(Cluster.of("two", List.of(
            new NodeSpec("n0", "r0", 4, "V100", 32_768, 64_000, 262_144),
            new NodeSpec("n1", "r0", 4, "V100", 32_768, 64_000, 262_144)))),
            (job, now) -> job.job().arrival(), PreemptionCosts.FREE, false);

    private static Job asking(int gpus, Set<String> models, long cpuMilli, long memoryMib) {
        return Job.simple("j", 0, gpus, 100).withDemand(new Demand(gpus, 1000, models, cpuMilli, memoryMib));
    }

    @Test
    void shouldRunAJobThatOneNodeCanHold() {
        assertThat(WORKLOAD.everFits(asking(4, Set.of(), 64_000, 262_144))).isTrue();
    }

    @Test
    void shouldNeverRunAJobWhenNoNodeHasItsMemory() {
        assertThat(WORKLOAD.everFits(asking(1, Set.of(), 1_000, 262_145))).isFalse();
    }

    @Test
    void shouldNeverRunAJobWhenNoNodeHasItsCpu() {
        assertThat(WORKLOAD.everFits(asking(1, Set.of(), 64_001, 1_024))).isFalse();
    }

    @Test
    void shouldNeverRunAJobWhenNoNodeHasItsGpuModel() {
        assertThat(WORKLOAD.everFits(asking(1, Set.of("H100"), 0, 0))).isFalse();
        assertThat(WORKLOAD.everFits(asking(1, Set.of("H100", "V100"), 0, 0))).isTrue();
    }

    @Test
    void shouldRunAGangJobLargerThanAnyNodeOnlyWhenTheClusterHasTheGpus() {
        assertThat(WORKLOAD.everFits(asking(8, Set.of(), 0, 0))).isTrue();
        assertThat(WORKLOAD.everFits(asking(9, Set.of(), 0, 0))).isFalse();
    }

    @Test
    void shouldRunAnElasticJobWhoseMinimumFitsEvenIfItsRequestDoesNot() {
        Job elastic = new Job("e", "", "", 0, Demand.wholeGpus(16), 100, 0, true, true, 4, 16, 0);

        assertThat(WORKLOAD.everFits(elastic)).isTrue();
    }
}
