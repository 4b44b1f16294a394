package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.NOW;
import static dev.continuum.placement.core.planner.World.planner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.Policy;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Decision;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrainingPlacementTest {
    private static final int[] SIZES = {1, 2, 4, 8, 16};

    /** What the simulator does with the same jobs: its Workload and the policy parsed from the same string. */
    private static final class SimulatorReference {
        final Policy policy;
        final Workload workload;
        final Map<String, ActiveJob> jobs = new HashMap<>();
        final List<String> log = new ArrayList<>();

        SimulatorReference(Inventory inventory, String spec) {
            policy = Policies.parse(spec);
            workload = new Workload(new ClusterState(inventory.clusters().getFirst()), policy.order(),
                    PreemptionCosts.DEFAULT, policy.lending());
        }

        void arrive(Job job, double now) {
            policy.onArrival(job);
            jobs.put(job.id(), workload.arrive(job, now));
            round(now);
        }

        void complete(String id, double now) {
            ActiveJob a = jobs.remove(id);
            workload.complete(a, now);
            policy.onCompletion(a, now);
            round(now);
        }

        private void round(double now) {
            Workload.Session s = workload.session(now);
            policy.schedule(s);
            for (Decision d : s.decisions()) {
                switch (d) {
                    case Decision.Start st -> log.add("start " + d.jobId() + " " + where(st.placement().slices()));
                    case Decision.Preempt p -> log.add("preempt " + d.jobId());
                    case Decision.Migrate m -> log.add("move " + d.jobId() + " " + where(m.to().slices()));
                    case Decision.Resize r -> log.add("move " + d.jobId() + " " + where(r.to().slices()));
                }
            }
        }

        private String where(List<Slice> slices) {
            List<NodeSpec> nodes = workload.state().cluster().nodes();
            return String.join(" + ", slices.stream().map(s -> nodes.get(s.node()).id() + " GPUs "
                    + Arrays.toString(s.gpus()) + (s.milliPerGpu() < 1000 ? " (" + s.milliPerGpu() + "‰ each)" : ""))
                    .toList());
        }
    }

    /** Logs the decisions as the reference does and keeps {@code running} up to date. */
    private static void logInto(List<String> log, List<String> running, List<PlacementDecision> decisions) {
        for (PlacementDecision d : decisions) {
            switch (d) {
                case PlacementDecision.Placed p -> {
                    log.add("start " + d.requestId() + " " + p.chosen().target());
                    running.add(d.requestId());
                }
                case PlacementDecision.Preempted p -> {
                    log.add("preempt " + d.requestId());
                    running.remove(d.requestId());
                }
                case PlacementDecision.Moved m -> log.add("move " + d.requestId() + " " + m.to().target());
                case PlacementDecision.Queued q -> { }
                case PlacementDecision.Unplaceable u -> log.add("unplaceable " + d.requestId());
            }
        }
    }

    @Test
    void shouldStartAndStopTrainingJobsExactlyAsTheSimulatorsPolicyWouldForTheSameState() {
        for (String spec : List.of("las+fgd", "fifo", "srtf+migrate", "qssf+bestfit")) {
            Inventory inventory = new World().training("dc", 6, 8, "A100").inventory();
            OnlinePlanner planner = planner(inventory, PlannerConfig.DEFAULT.withPolicy(spec));
            SimulatorReference simulator = new SimulatorReference(inventory, spec);
            List<String> planned = new ArrayList<>();
            Random random = new Random(11);
            List<String> running = new ArrayList<>();
            for (int step = 0; step < 120; step++) {
                long now = NOW + step * 60_000L;
                if (!running.isEmpty() && random.nextInt(2) == 0) {
                    String done = running.remove(random.nextInt(running.size()));
                    logInto(planned, running, planner.observe(new Observation.JobCompleted(done, "dc", "", 0, now)));
                    simulator.complete(done, now / 1000.0);
                    continue;
                }
                int gpus = SIZES[random.nextInt(SIZES.length)];
                long seconds = 600 + random.nextInt(7200);
                PlacementRequest r = PlacementRequest.training("j" + step, Demand.wholeGpus(gpus), "", seconds);
                logInto(planned, running, planner.place(r, now).decisions());
                simulator.arrive(new Job(r.id(), "", "", now / 1000, r.demand(), seconds, 0, true, true, gpus, gpus, 0),
                        now / 1000.0);
            }

            assertThat(planned).as(spec).isEqualTo(simulator.log).hasSizeGreaterThan(50);
        }
    }

    @Test
    void shouldQueueATrainingJobWhenItsGpusAreTaken() {
        OnlinePlanner planner = planner(new World().training("dc", 1, 8, "A100").inventory());
        planner.place(PlacementRequest.training("big", Demand.wholeGpus(8), "", 3600), NOW);

        PlacementDecision d = planner.place(PlacementRequest.training("next", Demand.wholeGpus(4), "", 3600), NOW)
                .decision();

        assertThat(d).isEqualTo(new PlacementDecision.Queued("next", "dc", 1,
                List.of("waits on dc for 4 GPUs under policy fifo: 0 GPUs free, 1 job waiting")));
    }

    @Test
    void shouldStartAQueuedJobWhenTheJobAheadCompletes() {
        OnlinePlanner planner = planner(new World().training("dc", 1, 8, "A100").inventory());
        planner.place(PlacementRequest.training("big", Demand.wholeGpus(8), "", 3600), NOW);
        planner.place(PlacementRequest.training("next", Demand.wholeGpus(4), "", 3600), NOW);

        List<PlacementDecision> after = planner.observe(new Observation.JobCompleted("big", "dc", "", 0, NOW + 60_000));

        assertThat(after).singleElement().isInstanceOfSatisfying(PlacementDecision.Placed.class, p -> {
            assertThat(p.requestId()).isEqualTo("next");
            assertThat(p.chosen().target()).isEqualTo("dc-n0 GPUs [0, 1, 2, 3]");
            assertThat(p.reasons()).contains("waited 60.0 s in the queue");
        });
    }

    @Test
    void shouldForgetAQueuedJobReportedCompletedSoItIsNeverStartedThereLater() {
        // a job that waited here and went elsewhere (moved to another cluster) or ended is reported completed
        OnlinePlanner planner = planner(new World().training("dc", 1, 8, "A100").inventory());
        planner.place(PlacementRequest.training("big", Demand.wholeGpus(8), "", 3600), NOW);
        planner.place(PlacementRequest.training("gone", Demand.wholeGpus(8), "", 3600), NOW);
        assertThat(planner.trainingPools()).singleElement().satisfies(p -> assertThat(p.waiting()).containsExactly("gone"));

        assertThat(planner.observe(new Observation.JobCompleted("gone", "dc", "", 0, NOW + 1_000))).isEmpty();
        assertThat(planner.observe(new Observation.JobCompleted("big", "dc", "", 0, NOW + 60_000))).isEmpty();
        assertThat(planner.trainingPools()).singleElement().satisfies(p -> {
            assertThat(p.freeGpus()).isEqualTo(8);
            assertThat(p.waiting()).isEmpty();
        });
    }

    @Test
    void shouldSayWhyEachTrainingClusterCannotTakeTheJob() {
        World w = new World().training("dc-a100", 1, 8, "A100").training("dc-h100", 2, 8, "H100");
        Inventory inventory = w.inventory().withStatus("dc-h100", SiteStatus.training().offline());
        OnlinePlanner planner = planner(inventory);

        PlacementDecision d = planner.place(PlacementRequest.training("big", Demand.wholeGpus(16), "", 3600), NOW)
                .decision();

        assertThat(d).isInstanceOfSatisfying(PlacementDecision.Unplaceable.class, u -> assertThat(u.reasons())
                .containsExactly("dc-a100: needs 16 GPUs with the CPU and memory asked, it has 8 such GPUs (largest node 8)",
                        "dc-h100: offline"));
    }

    @Test
    void shouldPlaceEveryJobAgainWhenATrainingClustersNodesChange() {
        OnlinePlanner planner = planner(new World().training("dc", 1, 8, "A100").inventory());
        planner.place(PlacementRequest.training("a", Demand.wholeGpus(8), "", 3600), NOW);
        planner.place(PlacementRequest.training("b", Demand.wholeGpus(8), "", 3600), NOW);

        List<PlacementDecision> after = planner.update(new World().training("dc", 2, 8, "A100").inventory(), NOW + 1000);

        assertThat(after).extracting(d -> d.getClass().getSimpleName() + " " + d.requestId())
                .containsExactly("Preempted a", "Placed a", "Placed b");
    }

    @Test
    void shouldPreemptAJobLasHasDemotedWhenTimePasses() {
        OnlinePlanner planner = planner(new World().training("dc", 1, 8, "A100").inventory(),
                PlannerConfig.DEFAULT.withPolicy("las"));
        planner.place(PlacementRequest.training("first", Demand.wholeGpus(8), "", 36_000), NOW);
        planner.place(PlacementRequest.training("second", Demand.wholeGpus(8), "", 36_000), NOW + 1000);

        // 8 GPUs x 500 s = 4,000 GPU-seconds: past LAS' first threshold (3,600), so "first" drops a level
        List<PlacementDecision> later = planner.observe(new Observation.Tick(NOW + 500_000));

        assertThat(later).extracting(d -> d.getClass().getSimpleName() + " " + d.requestId())
                .containsExactly("Preempted first", "Placed second");
    }
}
