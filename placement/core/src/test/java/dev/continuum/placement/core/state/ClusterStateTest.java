package dev.continuum.placement.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The free-capacity books every policy reads: what allocating and releasing do to them, and what does not fit. */
class ClusterStateTest {
    /** Two 4-GPU nodes in one rack, a 2-GPU node in another; each node has 64 cores and 256 GiB. */
    private static final Cluster CLUSTER = Cluster.of("test", List.of(
            new NodeSpec("a", "r0", 4, "V100", 32_768, 64_000, 262_144),
            new NodeSpec("b", "r0", 4, "V100", 32_768, 64_000, 262_144),
            new NodeSpec("c", "r1", 2, "A100", 81_920, 64_000, 262_144)));

    private static ActiveJob job(String id, int gpus) {
        return new ActiveJob(Job.simple(id, 0, gpus, 100), 0);
    }

    @Test
    void shouldStartWithEveryGpuCoreAndByteFree() {
        ClusterState state = new ClusterState(CLUSTER);

        assertThat(state.totalGpus()).isEqualTo(10);
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(10);
        assertThat(state.allocatedGpuMilli()).isZero();
        assertThat(state.freeGpuMilliOnNode(2)).isEqualTo(2000);
        assertThat(state.freeMemory(1)).isEqualTo(262_144);
        assertThat(state.maxGpusPerNode()).isEqualTo(4);
    }

    @Test
    void shouldTakeGpusCpuAndMemoryWhenAllocatedAndGiveThemBackWhenReleased() {
        ClusterState state = new ClusterState(CLUSTER);
        ActiveJob j = job("j", 2);
        Placement p = Placement.of(new Slice(0, new int[] {1, 3}, 1000, 8_000, 65_536));

        state.allocate(j, p, false);

        assertThat(state.fullyFreeGpus(0)).isEqualTo(2);
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(8);
        assertThat(state.freeGpuMilli(0, 1)).isZero();
        assertThat(state.freeGpuMilli(0, 0)).isEqualTo(1000);
        assertThat(state.freeCpu(0)).isEqualTo(56_000);
        assertThat(state.freeMemory(0)).isEqualTo(196_608);
        assertThat(state.allocatedGpuMilli()).isEqualTo(2000);
        assertThat(state.jobsOn(0)).containsExactly(j);

        state.release(j, p, false);

        assertThat(state.fullyFreeGpus(0)).isEqualTo(4);
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(10);
        assertThat(state.freeCpu(0)).isEqualTo(64_000);
        assertThat(state.freeMemory(0)).isEqualTo(262_144);
        assertThat(state.allocatedGpuMilli()).isZero();
        assertThat(state.jobsOn(0)).isEmpty();
    }

    @Test
    void shouldCountASharedGpuAsFullyFreeOnlyWhenItsLastShareIsReleased() {
        ClusterState state = new ClusterState(CLUSTER);
        ActiveJob first = job("first", 1);
        ActiveJob second = job("second", 1);
        Placement half = Placement.of(new Slice(2, new int[] {0}, 500, 0, 0));

        state.allocate(first, half, false);
        state.allocate(second, half, false);

        assertThat(state.freeGpuMilli(2, 0)).isZero();
        assertThat(state.fullyFreeGpus(2)).isEqualTo(1);
        assertThat(state.fits(half)).isFalse();

        state.release(first, half, false);

        assertThat(state.freeGpuMilli(2, 0)).isEqualTo(500);
        assertThat(state.fullyFreeGpus(2)).isEqualTo(1);
        assertThat(state.fits(half)).isTrue();

        state.release(second, half, false);

        assertThat(state.fullyFreeGpus(2)).isEqualTo(2);
        assertThat(state.freeGpuMilliOnNode(2)).isEqualTo(2000);
    }

    @Test
    void shouldBookAGangJobOnEveryNodeItSpans() {
        ClusterState state = new ClusterState(CLUSTER);
        ActiveJob gang = job("gang", 6);
        Placement p = Placement.of(new Slice(0, new int[] {0, 1, 2, 3}, 1000, 0, 0), new Slice(2, new int[] {0, 1}, 1000, 0, 0));

        state.allocate(gang, p, false);

        assertThat(state.jobsOn(0)).containsExactly(gang);
        assertThat(state.jobsOn(1)).isEmpty();
        assertThat(state.jobsOn(2)).containsExactly(gang);
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(4);

        state.release(gang, p, false);

        assertThat(state.jobsOn(0)).isEmpty();
        assertThat(state.jobsOn(2)).isEmpty();
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(10);
    }

    @Test
    void shouldRefuseAJobWhenTheNodeLacksTheMemory() {
        ClusterState state = new ClusterState(CLUSTER);
        Placement tooBig = Placement.of(new Slice(0, new int[] {0}, 1000, 1_000, 262_145));

        assertThat(state.fits(tooBig)).isFalse();
        assertThatThrownBy(() -> state.allocate(job("big", 1), tooBig, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not fit");
        assertThat(state.fullyFreeGpusTotal()).isEqualTo(10);
        assertThat(state.freeMemory(0)).isEqualTo(262_144);
    }

    @Test
    void shouldRefuseAJobWhenMemoryIsLeftOnlyInTotalNotOnItsNode() {
        ClusterState state = new ClusterState(CLUSTER);
        state.allocate(job("hog", 1), Placement.of(new Slice(0, new int[] {0}, 1000, 0, 200_000)), false);

        assertThat(state.fits(Placement.of(new Slice(0, new int[] {1}, 1000, 0, 100_000)))).isFalse();
        assertThat(state.fits(Placement.of(new Slice(1, new int[] {1}, 1000, 0, 100_000)))).isTrue();
    }

    @Test
    void shouldRefuseAJobWhenTheNodeLacksTheCpu() {
        ClusterState state = new ClusterState(CLUSTER);

        assertThat(state.fits(Placement.of(new Slice(1, new int[] {0}, 1000, 64_001, 0)))).isFalse();
        assertThat(state.fits(Placement.of(new Slice(1, new int[] {0}, 1000, 64_000, 0)))).isTrue();
    }

    @Test
    void shouldRefuseAGpuTheNodeDoesNotHave() {
        ClusterState state = new ClusterState(CLUSTER);

        assertThat(state.fits(Placement.of(new Slice(2, new int[] {2}, 1000, 0, 0)))).isFalse();
        assertThat(state.fits(Placement.of(new Slice(2, new int[] {-1}, 1000, 0, 0)))).isFalse();
    }

    @Test
    void shouldRefuseAGpuAlreadyTaken() {
        ClusterState state = new ClusterState(CLUSTER);
        state.allocate(job("first", 1), Placement.of(new Slice(1, new int[] {2}, 1000, 0, 0)), false);

        assertThat(state.fits(Placement.of(new Slice(1, new int[] {2}, 1000, 0, 0)))).isFalse();
        assertThat(state.fits(Placement.of(new Slice(1, new int[] {2}, 1, 0, 0)))).isFalse();
        assertThat(state.fits(Placement.of(new Slice(1, new int[] {3}, 1000, 0, 0)))).isTrue();
    }

    @Test
    void shouldLeaveTheOriginalUntouchedWhenAWhatIfCopyIsChanged() {
        ClusterState state = new ClusterState(CLUSTER);
        ClusterState whatIf = state.copy();

        whatIf.allocate(job("j", 4), Placement.of(new Slice(1, new int[] {0, 1, 2, 3}, 1000, 0, 0)), false);

        assertThat(whatIf.fullyFreeGpus(1)).isZero();
        assertThat(whatIf.jobsOn(1)).hasSize(1);
        assertThat(state.fullyFreeGpus(1)).isEqualTo(4);
        assertThat(state.jobsOn(1)).isEmpty();
        assertThat(state.allocatedGpuMilli()).isZero();
    }

    @Test
    void shouldChangeTheVersionOfOnlyTheNodesAPlacementTouches() {
        ClusterState state = new ClusterState(CLUSTER);
        long a = state.nodeVersion(0);
        long b = state.nodeVersion(1);

        state.allocate(job("j", 1), Placement.of(new Slice(0, new int[] {0}, 1000, 0, 0)), false);

        assertThat(state.nodeVersion(0)).isNotEqualTo(a);
        assertThat(state.nodeVersion(1)).isEqualTo(b);
    }

    @Test
    void shouldCountBorrowedGpusAsUsedButNotAsGuaranteed() {
        ClusterState state = new ClusterState(CLUSTER);
        ActiveJob own = new ActiveJob(Job.simple("own", 0, 2, 100).withPartition("vc1"), 0);
        ActiveJob lent = new ActiveJob(Job.simple("lent", 0, 1, 100).withPartition("vc1"), 1);
        Placement two = Placement.of(new Slice(0, new int[] {0, 1}, 1000, 0, 0));
        Placement one = Placement.of(new Slice(0, new int[] {2}, 1000, 0, 0));

        state.allocate(own, two, false);
        state.allocate(lent, one, true);

        assertThat(state.usedMilli("vc1")).isEqualTo(3000);
        assertThat(state.guaranteedMilli("vc1")).isEqualTo(2000);

        state.release(lent, one, true);

        assertThat(state.usedMilli("vc1")).isEqualTo(2000);
        assertThat(state.guaranteedMilli("vc1")).isEqualTo(2000);
    }

    @Test
    void shouldGroupNodesByRack() {
        ClusterState state = new ClusterState(CLUSTER);

        assertThat(state.rackCount()).isEqualTo(2);
        assertThat(state.rack(0)).isEqualTo(state.rack(1)).isNotEqualTo(state.rack(2));
    }

    /** A policy may reuse its scratch array after placing a job; the books must not move with it. */
    @Test
    void shouldKeepASliceFromChangingWhenTheCallersArrayChanges() {
        int[] gpus = {0, 1};
        Slice slice = new Slice(0, gpus, 1000, 0, 0);

        gpus[1] = 3;

        assertThat(slice.gpus()).containsExactly(0, 1);
        assertThat(slice).isEqualTo(new Slice(0, new int[] {0, 1}, 1000, 0, 0));
    }
}
