package dev.continuum.placement.simulator.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.planner.CarbonCsvReader;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.World;
import dev.continuum.placement.core.policy.CarbonSignal;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.PolicyOptions;
import dev.continuum.placement.simulator.SimulationConfig;
import dev.continuum.placement.simulator.SimulationResult;
import dev.continuum.placement.simulator.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code +green} shifts jobs that can wait into the low-carbon window within their deadline, online and simulated. */
class GreenPolicyTest {

    /** 500 g/kWh until 01:00, 100 from 01:00 to 02:00, 500 after (times in seconds from 0, the trace's clock). */
    private static CarbonSignal dirtyCleanDirty(String site, long origin) {
        return new CarbonSignal(java.util.Map.of(site, List.of(new CarbonSignal.Point(origin, 500),
                new CarbonSignal.Point(origin + 3600, 100), new CarbonSignal.Point(origin + 7200, 500))));
    }

    private static Job job(String id, long arrival, long duration, long deadline) {
        return new Job(id, "", "", arrival, Demand.wholeGpus(1), duration, 0, true, true, 1, 1, deadline);
    }

    private static SimulationResult simulate(String policy, CarbonSignal signal, Job... jobs) {
        Cluster c = Cluster.of("dc", List.of(new NodeSpec("n0", "", 1, "A100", 81_920, 32_000, 256_000)));
        return new Simulator(SimulationConfig.of(c)).run(Policies.parse(policy, PolicyOptions.defaults(false), signal, "dc"),
                List.of(jobs).iterator());
    }

    @Test
    void shouldStartAJobThatCanWaitInTheCleanWindowInTheSimulator() {
        CarbonSignal signal = dirtyCleanDirty("dc", 0);
        Job deferrable = job("a", 0, 1800, 7200);
        assertThat(simulate("fifo", signal, deferrable).queueingDelay().max()).isZero();
        SimulationResult green = simulate("fifo+green", signal, deferrable);
        assertThat(green.queueingDelay().max()).isEqualTo(3600, org.assertj.core.data.Offset.offset(1.0));
        assertThat(green.sloAttainment()).as("still within its deadline").isEqualTo(1.0);
    }

    @Test
    void shouldNotDeferAJobWithoutSlackOrDeadlineOrSignal() {
        CarbonSignal signal = dirtyCleanDirty("dc", 0);
        assertThat(simulate("fifo+green", signal, job("tight", 0, 1800, 2000)).queueingDelay().max()).isZero();
        assertThat(simulate("fifo+green", signal, job("nodeadline", 0, 1800, 0)).queueingDelay().max()).isZero();
        assertThat(simulate("fifo+green", CarbonSignal.NONE, job("nosignal", 0, 1800, 7200)).queueingDelay().max()).isZero();
        // a window only 2 % cleaner is not worth the wait
        CarbonSignal flat = new CarbonSignal(java.util.Map.of("*", List.of(new CarbonSignal.Point(0, 500),
                new CarbonSignal.Point(3600, 490))));
        assertThat(simulate("fifo+green", flat, job("flat", 0, 1800, 7200)).queueingDelay().max()).isZero();
    }

    @Test
    void shouldDeferOnlineWithTheSamePolicyAndSayWhy() {
        long t0 = World.NOW / 1000;
        Inventory world = new World().training("dc", 1, 4, "A100", new Partition("lab", 4)).inventory();
        OnlinePlanner planner = new OnlinePlanner(PlannerConfig.DEFAULT.withPolicy("fifo+green")
                .withCarbon(dirtyCleanDirty("dc", t0)));
        planner.update(world, World.NOW);
        PlacementRequest nightly = PlacementRequest.training("nightly", Demand.wholeGpus(2), "lab", 1800)
                .withDeadline(t0 + 7200);
        PlacementDecision d = planner.place(nightly, World.NOW).decision();
        assertThat(d).isInstanceOf(PlacementDecision.Queued.class);
        assertThat(((PlacementDecision.Queued) d).reasons().getFirst())
                .startsWith("deferred by green until " + java.time.Instant.ofEpochSecond(t0 + 3600))
                .contains("100.0 then against 500.0 now");
        // a job with no deadline is not held
        assertThat(planner.place(PlacementRequest.training("now", Demand.wholeGpus(2), "lab", 1800), World.NOW).decision())
                .isInstanceOf(PlacementDecision.Placed.class);

        assertThat(planner.observe(new Observation.Tick(World.NOW + 3_599_000))).isEmpty();
        List<PlacementDecision> window = planner.observe(new Observation.Tick(World.NOW + 3_600_000));
        assertThat(window).singleElement().satisfies(w -> {
            assertThat(w.requestId()).isEqualTo("nightly");
            assertThat(w).isInstanceOf(PlacementDecision.Placed.class);
        });
    }

    @Test
    void shouldReadTheCarbonCsv(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("carbon.csv");
        Files.writeString(csv, """
                site,time,value
                dc,2026-11-25T00:00:00Z,420
                dc,2026-11-25T01:00:00Z,180
                *,0,300
                """);
        CarbonSignal s = CarbonCsvReader.read(csv);
        long midnight = java.time.Instant.parse("2026-11-25T00:00:00Z").getEpochSecond();
        assertThat(s.valueAt("dc", midnight + 10)).isEqualTo(420);
        assertThat(s.valueAt("dc", midnight + 3700)).isEqualTo(180);
        assertThat(s.average("dc", midnight, midnight + 7200)).isEqualTo(300);
        assertThat(s.valueAt("elsewhere", 5)).isEqualTo(300);
        Files.writeString(csv, "site,time,value\ndc,yesterday,1\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CarbonCsvReader.read(csv))
                .hasMessageContaining("line 2").hasMessageContaining("time");
    }
}
