package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.continuum.placement.core.policy.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class PartitionPoliciesTest {
    private final Cluster split = cluster(node("n0", "r0", 4), node("n1", "r0", 4))
            .withPartitions(List.of(new Partition("a", 4), new Partition("b", 4)));

    @Test
    void strictQuotasShouldLeaveIdleGpusOfAnotherPartitionUnused() {
        Policy fifo = Policies.parse("fifo");
        Workload w = workload(split, fifo);
        w.arrive(job("b1", 0, 4, 100).withPartition("b"), 0);
        w.arrive(job("b2", 0, 4, 100).withPartition("b"), 0);

        assertThat(round(w, fifo, 0)).containsExactly("start:b1");
    }

    @Test
    void lendingShouldLetAPartitionBorrowIdleQuotaAndTheOwnerReclaimIt() {
        Policy lend = Policies.parse("fifo+lend");
        Workload w = workload(split, lend);
        w.arrive(job("b1", 0, 4, 100).withPartition("b"), 0);
        w.arrive(job("b2", 0, 4, 100).withPartition("b"), 0);
        assertThat(round(w, lend, 0)).containsExactly("start:b1", "start:b2");

        w.arrive(job("a1", 10, 4, 100).withPartition("a"), 10);
        assertThat(round(w, lend, 10)).containsExactly("preempt:b2", "start:a1");
    }
}
