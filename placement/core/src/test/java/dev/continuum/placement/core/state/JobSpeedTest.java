package dev.continuum.placement.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How fast a started job runs, so when the simulator sees it finish: placement shape, GPUs given, CPU speed. */
class JobSpeedTest {
    /** Nodes 0 and 1 share rack r0, node 2 is alone in r1; 2 GPUs each. */
    private static final Cluster THREE_NODES = Cluster.of("three", List.of(
            new NodeSpec("n0", "r0", 2, "V100", 32_768, 64_000, 262_144),
            new NodeSpec("n1", "r0", 2, "V100", 32_768, 64_000, 262_144),
            new NodeSpec("n2", "r1", 2, "V100", 32_768, 64_000, 262_144)));

    private static Workload workload(Cluster cluster) {
        return new Workload(new ClusterState(cluster), (job, now) -> job.job().arrival(), PreemptionCosts.FREE, false);
    }

    private static Slice both(int node) {
        return new Slice(node, new int[] {0, 1}, 1000, 0, 0);
    }

    private static double finishOf4GpuJobOn(Cluster cluster, Placement p) {
        Workload w = workload(cluster);
        ActiveJob a = w.arrive(Job.simple("a", 0, 4, 100), 0);
        w.session(0).start(a, p, 1.0);
        return a.expectedFinish();
    }

    @Test
    void shouldRunAtFullSpeedAcrossNodesOfOneRackAndSlowerAcrossRacks() {
        assertThat(finishOf4GpuJobOn(THREE_NODES, Placement.of(both(0), both(1)))).isCloseTo(100, within(1e-9));
        assertThat(finishOf4GpuJobOn(THREE_NODES, Placement.of(both(0), both(2)))).isCloseTo(130, within(1e-9));
    }

    @Test
    void shouldApplyTheClustersOwnTopologySlowdowns() {
        Cluster slowNetwork = THREE_NODES.withTopology(new Topology(1.25, 2.0));

        assertThat(finishOf4GpuJobOn(slowNetwork, Placement.of(both(0), both(1)))).isCloseTo(125, within(1e-9));
        assertThat(finishOf4GpuJobOn(slowNetwork, Placement.of(both(0), both(2)))).isCloseTo(200, within(1e-9));
    }

    @Test
    void shouldRunAnElasticJobInProportionToTheGpusItGot() {
        Workload w = workload(THREE_NODES);
        Job elastic = new Job("e", "", "", 0, Demand.wholeGpus(4), 100, 0, true, true, 2, 4, 0);
        ActiveJob a = w.arrive(elastic, 0);
        w.session(0).start(a, Placement.of(both(0)), 1.0);
        assertThat(a.expectedFinish()).isCloseTo(200, within(1e-9));

        Workload.Session s = w.session(100);
        s.resize(a, Placement.of(both(0), both(1)));

        assertThat(a.expectedFinish()).isCloseTo(150, within(1e-9));
        assertThat(s.decisions()).containsExactly(new Decision.Resize("e", Placement.of(both(0)), Placement.of(both(0), both(1))));
        assertThat(w.state().fullyFreeGpus(1)).isZero();
    }

    @Test
    void shouldRunSlowerOnASlowerCpuShare() {
        Workload w = workload(THREE_NODES);
        ActiveJob a = w.arrive(Job.simple("a", 0, 2, 100), 0);

        w.session(0).start(a, Placement.of(both(2)), 0.5);

        assertThat(a.expectedFinish()).isCloseTo(200, within(1e-9));
    }

    @Test
    void shouldKeepItsSpeedWhenMigratedToAPlacementOfTheSameShape() {
        Workload w = workload(THREE_NODES);
        ActiveJob a = w.arrive(Job.simple("a", 0, 2, 100), 0);
        w.session(0).start(a, Placement.of(both(0)), 0.5);

        w.session(20).migrate(a, Placement.of(both(2)));

        assertThat(a.remainingAt(20)).isCloseTo(90, within(1e-9));
        assertThat(a.expectedFinish()).isCloseTo(20 + 180, within(1e-9));
    }

    @Test
    void shouldAccumulateAttainedServiceInGpuSecondsAcrossAPreemption() {
        Workload w = workload(THREE_NODES);
        ActiveJob a = w.arrive(Job.simple("a", 0, 2, 100), 0);
        w.session(0).start(a, Placement.of(both(0)), 1.0);
        assertThat(a.attainedAt(30)).isCloseTo(60, within(1e-9));

        w.session(30).preempt(a, Decision.Reason.PRIORITY);

        assertThat(a.attainedAt(80)).isCloseTo(60, within(1e-9));
        w.session(80).start(a, Placement.of(both(1)), 1.0);
        assertThat(a.attainedAt(90)).isCloseTo(80, within(1e-9));
    }
}
