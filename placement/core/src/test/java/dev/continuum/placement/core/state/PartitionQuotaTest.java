package dev.continuum.placement.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Partition quotas as a simulated tenant sees them: guaranteed within quota, borrowed beyond it, given back at the end. */
class PartitionQuotaTest {
    /** One 8-GPU node, so capacity never decides: vc1 is guaranteed 2 GPUs, vc2 4. */
    private static final Cluster CLUSTER = Cluster.of("test",
            List.of(new NodeSpec("n0", "r0", 8, "V100", 32_768, 64_000, 262_144)))
            .withPartitions(List.of(new Partition("vc1", 2), new Partition("vc2", 4)));

    private static Workload workload(boolean lending) {
        return new Workload(new ClusterState(CLUSTER), (job, now) -> job.job().arrival(), PreemptionCosts.FREE, lending);
    }

    private static Job job(String id, String partition, int gpus) {
        return Job.simple(id, 0, gpus, 100).withPartition(partition);
    }

    private static Placement onGpus(int... gpus) {
        return Placement.of(new Slice(0, gpus, 1000, 0, 0));
    }

    /** Starts a 2-GPU vc1 job on GPUs 0 and 1: vc1's whole quota. */
    private static ActiveJob vc1QuotaInUse(Workload w) {
        ActiveJob own = w.arrive(job("own", "vc1", 2), 0);
        w.session(0).start(own, onGpus(0, 1), 1.0);
        return own;
    }

    @Test
    void shouldGuaranteeAJobWithinItsPartitionsQuota() {
        Workload w = workload(true);
        ActiveJob a = w.arrive(job("a", "vc1", 2), 0);
        Workload.Session s = w.session(0);

        assertThat(s.quota(a.job(), 2)).isEqualTo(QuotaStatus.GUARANTEED);
        s.start(a, onGpus(0, 1), 1.0);

        assertThat(s.decisions()).containsExactly(new Decision.Start("a", onGpus(0, 1), false));
        assertThat(a.borrowed()).isFalse();
    }

    @Test
    void shouldLetAJobBorrowIdleGpusWhenOverQuotaAndLendingIsOn() {
        Workload w = workload(true);
        vc1QuotaInUse(w);
        ActiveJob extra = w.arrive(job("extra", "vc1", 1), 0);
        Workload.Session s = w.session(0);

        assertThat(s.quota(extra.job(), 1)).isEqualTo(QuotaStatus.BORROW);
        s.start(extra, onGpus(2), 1.0);

        assertThat(s.decisions()).last().isEqualTo(new Decision.Start("extra", onGpus(2), true));
        assertThat(extra.borrowed()).isTrue();
        assertThat(w.state().usedMilli("vc1")).isEqualTo(3000);
        assertThat(w.state().guaranteedMilli("vc1")).isEqualTo(2000);
    }

    @Test
    void shouldRefuseAJobOverQuotaWhenLendingIsOffAndKeepItWaiting() {
        Workload w = workload(false);
        ActiveJob big = w.arrive(job("big", "vc1", 3), 0);
        Workload.Session s = w.session(0);

        assertThat(s.quota(big.job(), 3)).isEqualTo(QuotaStatus.DENIED);
        assertThatThrownBy(() -> s.start(big, onGpus(0, 1, 2), 1.0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("quota");

        assertThat(w.waitingCount()).isEqualTo(1);
        assertThat(s.waiting(10)).containsExactly(big);
        assertThat(w.state().fullyFreeGpusTotal()).isEqualTo(8);
        assertThat(s.decisions()).isEmpty();
    }

    @Test
    void shouldGiveTheQuotaBackWhenAGuaranteedJobCompletes() {
        Workload w = workload(false);
        ActiveJob first = vc1QuotaInUse(w);
        ActiveJob second = w.arrive(job("second", "vc1", 2), 0);
        assertThat(w.session(0).quota(second.job(), 2)).isEqualTo(QuotaStatus.DENIED);

        w.complete(first, 100);

        assertThat(w.session(100).quota(second.job(), 2)).isEqualTo(QuotaStatus.GUARANTEED);
        assertThat(w.state().usedMilli("vc1")).isZero();
    }

    @Test
    void shouldLeaveTheGuaranteeAloneWhenABorrowedJobCompletes() {
        Workload w = workload(true);
        vc1QuotaInUse(w);
        ActiveJob lent = w.arrive(job("lent", "vc1", 2), 0);
        ActiveJob next = w.arrive(job("next", "vc1", 1), 0);
        w.session(0).start(lent, onGpus(2, 3), 1.0);

        w.complete(lent, 100);

        assertThat(w.state().usedMilli("vc1")).isEqualTo(2000);
        assertThat(w.state().guaranteedMilli("vc1")).isEqualTo(2000);
        assertThat(w.session(100).quota(next.job(), 1)).isEqualTo(QuotaStatus.BORROW);
    }

    @Test
    void shouldReturnBorrowedGpusWhenABorrowerIsPreemptedAndGuaranteeItWhenQuotaFreesUp() {
        Workload w = workload(true);
        ActiveJob own = vc1QuotaInUse(w);
        ActiveJob lent = w.arrive(job("lent", "vc1", 1), 0);
        w.session(0).start(lent, onGpus(2), 1.0);

        w.session(10).preempt(lent, Decision.Reason.RECLAIM);
        assertThat(w.state().usedMilli("vc1")).isEqualTo(2000);
        w.complete(own, 100);
        w.session(100).start(lent, onGpus(5), 1.0);

        assertThat(lent.borrowed()).isFalse();
        assertThat(w.state().guaranteedMilli("vc1")).isEqualTo(1000);
    }

    @Test
    void shouldKeepOnePartitionsBorrowingOutOfAnothersQuota() {
        Workload w = workload(false);
        ActiveJob two = w.arrive(job("two", "vc2", 4), 0);

        vc1QuotaInUse(w);

        assertThat(w.session(0).quota(two.job(), 4)).isEqualTo(QuotaStatus.GUARANTEED);
    }

    @Test
    void shouldGuaranteeJobsOfAPartitionThatHasNoQuota() {
        Workload w = workload(false);
        ActiveJob free = w.arrive(job("free", "", 8), 0);
        ActiveJob unknown = w.arrive(job("unknown", "vc9", 8), 0);

        assertThat(w.session(0).quota(free.job(), 8)).isEqualTo(QuotaStatus.GUARANTEED);
        assertThat(w.session(0).quota(unknown.job(), 8)).isEqualTo(QuotaStatus.GUARANTEED);
    }

    @Test
    void shouldCountFractionalJobsAgainstTheQuotaByTheirShare() {
        Workload w = workload(true);
        Job quarter = new Job("q", "", "vc1", 0, new Demand(1, 250, Set.of(), 0, 0), 100, 0, true, true, 1, 1, 0);
        Workload.Session s = w.session(0);
        for (int i = 0; i < 8; i++) {
            ActiveJob a = w.arrive(quarter, 0);
            assertThat(s.quota(quarter, 1)).isEqualTo(QuotaStatus.GUARANTEED);
            s.start(a, Placement.of(new Slice(0, new int[] {i / 4}, 250, 0, 0)), 1.0);
        }

        assertThat(s.quota(quarter, 1)).isEqualTo(QuotaStatus.BORROW);
        assertThat(w.state().guaranteedMilli("vc1")).isEqualTo(2000);
        assertThat(w.state().fullyFreeGpusTotal()).isEqualTo(6);
    }
}
