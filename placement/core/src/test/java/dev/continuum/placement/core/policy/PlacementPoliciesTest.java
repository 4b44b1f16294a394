package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.state.Decision;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static dev.continuum.placement.core.policy.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class PlacementPoliciesTest {
    private final Cluster twoNodes = cluster(node("n0", "r0", 8), node("n1", "r0", 8));

    private static int startedOn(Workload w, Policy p, double now) {
        Workload.Session s = w.session(now);
        p.schedule(s);
        return ((Decision.Start) s.decisions().getLast()).placement().firstNode();
    }

    @Test
    void bestFitShouldPackOntoTheFullerNode() {
        Policy bestFit = Policies.parse("fifo+bestfit");
        Workload w = workload(twoNodes, bestFit);
        occupy(w, job("busy", 0, 6, 1000), 0, 0, 0, 1, 2, 3, 4, 5);
        w.arrive(job("one", 1, 1, 10), 1);

        assertThat(startedOn(w, bestFit, 1)).isEqualTo(0);
    }

    @Test
    void worstFitShouldSpreadOntoTheEmptierNode() {
        Policy worstFit = Policies.parse("fifo+worstfit");
        Workload w = workload(twoNodes, worstFit);
        occupy(w, job("busy", 0, 6, 1000), 0, 0, 0, 1, 2, 3, 4, 5);
        w.arrive(job("one", 1, 1, 10), 1);

        assertThat(startedOn(w, worstFit, 1)).isEqualTo(1);
    }

    @Test
    void dotProductShouldSendACpuHeavyJobWhereCpuIsFreeEvenWhenBestFitWouldNot() {
        Cluster c = cluster(node("n0", "r0", 8), node("n1", "r0", 8));
        Job cpuHog = new Job("hog", "", "", 0, new Demand(0, 0, Set.of(), 56_000, 0), 1000, 0, true, true, 0, 0, 0);
        Job cpuJob = new Job("cpu", "", "", 1, new Demand(1, 1000, Set.of(), 8_000, 0), 10, 0, true, true, 1, 1, 0);

        Policy dot = Policies.parse("fifo+dotprod");
        Workload wd = workload(c, dot);
        occupy(wd, cpuHog, 0, 0);
        wd.arrive(cpuJob, 1);
        Policy best = Policies.parse("fifo+bestfit");
        Workload wb = workload(c, best);
        occupy(wb, cpuHog, 0, 0);
        wb.arrive(cpuJob, 1);

        assertThat(startedOn(wd, dot, 1)).isEqualTo(1);
        assertThat(startedOn(wb, best, 1)).isEqualTo(0);
    }

    @Test
    void fgdShouldKeepAGpuUsableForTheWorkloadWhereBestFitLeavesAnUnusableSliver() {
        Cluster c = cluster(node("n0", "r0", 1), node("n1", "r0", 1));
        FragmentationGradient fgd = new FragmentationGradient();
        Policy fgdPolicy = new StandardPolicy("fgd", new FifoOrder(), fgd, PolicyOptions.defaults(false));
        for (int i = 0; i < 10; i++) {
            fgd.onArrival(shared("typical" + i, 300)); // the workload: 0.3-GPU tasks
        }
        Workload wf = workload(c, fgdPolicy);
        occupy(wf, shared("resident", 650), 1, 0, 0); // n1 has 350 milli left
        wf.arrive(shared("new", 300), 1);
        Policy best = Policies.parse("fifo+bestfit");
        Workload wb = workload(c, best);
        occupy(wb, shared("resident", 650), 1, 0, 0);
        wb.arrive(shared("new", 300), 1);

        // best fit fills n1 to 950 and strands 50 milli; FGD keeps n1's 350 for a future 0.3 task
        assertThat(startedOn(wb, best, 1)).isEqualTo(1);
        assertThat(startedOn(wf, fgdPolicy, 1)).isEqualTo(0);
    }

    @Test
    void synergyShouldStartACpuHungryJobOnACpuTightNodeAtReducedSpeed() {
        Cluster c = cluster(new NodeSpec("n0", "r0", 2, "V100", 0, 10_000, 100_000));
        Job hungry = new Job("hungry", "", "", 0, new Demand(1, 1000, Set.of(), 16_000, 0), 100, 0, true, true, 1, 1, 0);

        Policy plain = Policies.parse("fifo");
        Workload wp = workload(c, plain);
        wp.arrive(hungry, 0);
        Policy synergy = Policies.parse("fifo+synergy");
        Workload ws = workload(c, synergy);
        var a = ws.arrive(hungry, 0);

        assertThat(round(wp, plain, 0)).isEmpty();
        assertThat(round(ws, synergy, 0)).containsExactly("start:hungry");
        assertThat(a.rate()).isLessThan(1.0).isGreaterThan(0.5);
    }

    @Test
    void migrationShouldMoveASmallJobToFreeAWholeNodeForALargeOne() {
        Policy migrate = Policies.parse("fifo+migrate");
        Workload w = workload(twoNodes, migrate);
        occupy(w, job("small-a", 0, 1, 1000), 0, 0, 0);
        occupy(w, job("small-b", 0, 1, 1000), 1, 0, 0);
        w.arrive(job("big", 1, 8, 100), 1);

        assertThat(round(w, migrate, 1)).containsExactly("migrate:small-a", "start:big");
        assertThat(round(workload(twoNodes, Policies.parse("fifo")), Policies.parse("fifo"), 1)).isEmpty();
    }

    @Test
    void preemptionShouldNotTouchANonPreemptibleJob() {
        Policy srtf = Policies.parse("srtf");
        Workload w = workload(cluster(node("n0", "r0", 4)), srtf);
        Job pinned = new Job("pinned", "", "", 0, Demand.wholeGpus(4), 1000, 0, false, false, 4, 4, 0);
        occupy(w, pinned, 0, 0, 0, 1, 2, 3);
        w.arrive(job("short", 5, 4, 10), 5);

        assertThat(round(w, srtf, 5)).isEmpty();
    }

    @Test
    void elasticJobsShouldGrowOntoIdleGpusAndShrinkBackWhenOthersWait() {
        Policy elastic = Policies.parse("fifo+elastic");
        Workload w = workload(cluster(node("n0", "r0", 8)), elastic);
        Job stretchy = new Job("stretchy", "", "", 0, Demand.wholeGpus(4), 1000, 0, true, true, 2, 8, 0);
        var a = w.arrive(stretchy, 0);

        assertThat(round(w, elastic, 0)).containsExactly("start:stretchy", "resize:stretchy");
        assertThat(a.allocatedGpus()).isEqualTo(8);
        assertThat(a.rate()).as("twice the GPUs it asked for").isEqualTo(2.0);

        w.arrive(job("newcomer", 10, 4, 100), 10);
        assertThat(round(w, elastic, 10)).containsExactly("resize:stretchy", "start:newcomer");
        assertThat(a.allocatedGpus()).isEqualTo(4);
    }

    @Test
    void weightedBestFitShouldTradeGpuPackingForCpuPackingWhereGpuFirstBestFitDoesNot() {
        Job cpuHog = new Job("hog", "", "", 0, new Demand(0, 0, Set.of(), 60_000, 0), 1000, 0, true, true, 0, 0, 0);
        Job gpus = job("gpus", 0, 6, 1000);
        Job one = job("one", 1, 1, 10);

        Policy weighted = Policies.parse("fifo+bestfit-weighted");
        Workload ww = workload(twoNodes, weighted);
        occupy(ww, gpus, 0, 0, 0, 1, 2, 3, 4, 5);
        occupy(ww, cpuHog, 1, 0);
        ww.arrive(one, 1);
        Policy gpuFirst = Policies.parse("fifo+bestfit");
        Workload wg = workload(twoNodes, gpuFirst);
        occupy(wg, gpus, 0, 0, 0, 1, 2, 3, 4, 5);
        occupy(wg, cpuHog, 1, 0);
        wg.arrive(one, 1);

        // n0: 1/8 GPU + all CPU left; n1: 7/8 GPU + 1/16 CPU left
        assertThat(startedOn(ww, weighted, 1)).isEqualTo(1);
        assertThat(startedOn(wg, gpuFirst, 1)).isEqualTo(0);
    }
}
