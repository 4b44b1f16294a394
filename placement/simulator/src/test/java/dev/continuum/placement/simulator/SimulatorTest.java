package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.PolicyOptions;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.simulator.trace.ClusterReader;
import dev.continuum.placement.simulator.trace.SyntheticTrace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SimulatorTest {
    private static NodeSpec node(String id, String rack) {
        return new NodeSpec(id, rack, 8, "A100", 81_920, 96_000, 1_000_000);
    }

    @Test
    void shouldGiveIdenticalResultsForTheSameSeed() {
        Cluster c = ClusterReader.synthetic("nodes=32,gpus=8,rack=8", 8);
        SimulationConfig config = SimulationConfig.of(c);
        for (String policy : List.of("fifo", "las+migrate", "srtf", "fifo+fgd")) {
            SimulationResult a = new Simulator(config).run(Policies.parse(policy), new SyntheticTrace(3000, 7, 1.2, 256, 32, 40));
            SimulationResult b = new Simulator(config).run(Policies.parse(policy), new SyntheticTrace(3000, 7, 1.2, 256, 32, 40));

            assertThat(a.finished()).isEqualTo(3000);
            assertThat(b).usingRecursiveComparison().ignoringFields("wallMillis", "cpuMillis").isEqualTo(a);
        }
    }

    @Test
    void shouldChangeResultsWithTheSeed() {
        Cluster c = ClusterReader.synthetic("nodes=32,gpus=8,rack=8", 8);
        SimulationResult a = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), new SyntheticTrace(2000, 1, 1.2, 256, 32, 40));
        SimulationResult b = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), new SyntheticTrace(2000, 2, 1.2, 256, 32, 40));

        assertThat(a.jct().mean()).isNotEqualTo(b.jct().mean());
    }

    @Test
    void shouldComputeJctAndQueueingDelayOfAHandMadeTrace() {
        Cluster c = Cluster.of("one", List.of(node("n0", "r0")));
        List<Job> jobs = List.of(Job.simple("a", 0, 8, 100), Job.simple("b", 10, 8, 50));

        SimulationResult r = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), jobs.iterator());

        // a: 0..100 (JCT 100); b waits 90 s, runs 100..150 (JCT 140)
        assertThat(r.jct().mean()).isCloseTo(120, within(1e-9));
        assertThat(r.queueingDelay().mean()).isCloseTo(45, within(1e-9));
        assertThat(r.makespan()).isCloseTo(150, within(1e-9));
        assertThat(r.meanUtilization()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldSlowDownAJobSpreadOverRacksSoConsolidationWins() {
        // racks alternate by node index: a naive gang takes nodes 0 and 1 (two racks)
        Cluster c = Cluster.of("racks", List.of(node("n0", "A"), node("n1", "B"), node("n2", "A"), node("n3", "B")))
                .withTopology(new Topology(1.0, 1.5));
        List<Job> jobs = List.of(Job.simple("big", 0, 16, 1000));

        SimulationResult consolidated = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), jobs.iterator());
        SimulationResult spread = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo+spread"), jobs.iterator());

        assertThat(consolidated.jct().mean()).isCloseTo(1000, within(1e-6));
        assertThat(spread.jct().mean()).isCloseTo(1500, within(1e-6));
    }

    @Test
    void shouldChargeCheckpointAndRestoreForAPreemption() {
        Cluster c = Cluster.of("one", List.of(node("n0", "r0")));
        List<Job> jobs = List.of(Job.simple("long", 0, 8, 1000), Job.simple("short", 100, 8, 10));
        SimulationConfig config = SimulationConfig.of(c).withCosts(new PreemptionCosts(30, 60, 0));

        SimulationResult r = new Simulator(config).run(Policies.parse("srtf"), jobs.iterator());

        assertThat(r.preemptions()).isEqualTo(1);
        // 8 GPUs x (30 s checkpoint + 60 s restore)
        assertThat(r.lostGpuSeconds()).isCloseTo(720, within(1e-6));
        // long: 100 s done, 30 s lost, restarts at 110, restores 60 s, then 930 s of work: ends at 1100
        assertThat(r.makespan()).isCloseTo(1100, within(1e-6));
    }

    @Test
    void shouldRejectAJobNoNodeCanEverHold() {
        Cluster c = Cluster.of("one", List.of(node("n0", "r0")));
        List<Job> jobs = List.of(Job.simple("too-big", 0, 16, 10), Job.simple("ok", 0, 1, 10));

        SimulationResult r = new Simulator(SimulationConfig.of(c)).run(Policies.parse("fifo"), jobs.iterator());

        assertThat(r.rejected()).isEqualTo(1);
        assertThat(r.finished()).isEqualTo(1);
    }

    @Test
    void lasShouldBeatFifoOnMeanJctForAHeavyTailedWorkload() {
        Cluster c = ClusterReader.synthetic("nodes=16,gpus=8,rack=8", 8);
        SimulationConfig config = SimulationConfig.of(c).withCosts(PreemptionCosts.FREE);
        SimulationResult fifo = new Simulator(config).run(Policies.parse("fifo"), new SyntheticTrace(3000, 3, 1.0, 128, 16, 30));
        SimulationResult las = new Simulator(config).run(Policies.parse("las"), new SyntheticTrace(3000, 3, 1.0, 128, 16, 30));

        assertThat(las.jct().mean()).isLessThan(fifo.jct().mean() * 0.7);
        assertThat(las.queueingDelay().mean()).isLessThan(fifo.queueingDelay().mean() / 10);
    }

    @Test
    void aPreemptionDeferredByTheIntervalShouldHappenWhenTheIntervalEnds() {
        Cluster c = Cluster.of("one", List.of(node("n0", "r0")));
        List<Job> jobs = List.of(Job.simple("long", 0, 8, 10_000), Job.simple("short1", 100, 8, 10),
                Job.simple("short2", 130, 8, 10));
        SimulationConfig config = SimulationConfig.of(c).withCosts(PreemptionCosts.FREE);
        PolicyOptions base = PolicyOptions.defaults(true);

        SimulationResult every60s = new Simulator(config).run(Policies.parse("srtf", base), jobs.iterator());
        SimulationResult everyRound = new Simulator(config).run(Policies.parse("srtf", base.withRoomMakingInterval(0)),
                jobs.iterator());

        // short2 waits until 160 (60 s after the preemption at 100): JCT 40 instead of 10
        assertThat(every60s.preemptions()).isEqualTo(2);
        assertThat(every60s.jct().mean()).isCloseTo((10_020 + 10 + 40) / 3.0, within(1e-6));
        assertThat(everyRound.jct().mean()).isCloseTo((10_020 + 10 + 10) / 3.0, within(1e-6));
    }
}
