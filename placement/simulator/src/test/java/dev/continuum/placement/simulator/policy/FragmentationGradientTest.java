package dev.continuum.placement.simulator.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.policy.FifoOrder;
import dev.continuum.placement.core.policy.Fragmentation;
import dev.continuum.placement.core.policy.FragmentationGradient;
import dev.continuum.placement.core.policy.WorkloadProfile;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;
import dev.continuum.placement.simulator.trace.ClusterReader;
import dev.continuum.placement.simulator.trace.OpenbPodReader;
import dev.continuum.placement.simulator.trace.TraceReader;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** FGD as its paper and the authors' simulator define it, and its per-node score cache. */
class FragmentationGradientTest {
    private static Path fixture(String name) {
        try {
            return Path.of(Objects.requireNonNull(FragmentationGradientTest.class.getResource("/fixtures/" + name)).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldPlaceExactlyAsWithoutTheCacheOnAnOpenbShapedFill() {
        Cluster c = ClusterReader.read(fixture("openb-fill-nodes.csv").toString(), 4);
        List<Job> pods = new ArrayList<>();
        try (TraceReader r = new OpenbPodReader(fixture("openb-fill-pods.csv"), false)) {
            r.forEachRemaining(pods::add);
        }

        List<String> cached = fill(c, pods, new FragmentationGradient(new WorkloadProfile(), true));
        List<String> reference = fill(c, pods, new FragmentationGradient(new WorkloadProfile(), false));

        assertThat(cached).hasSize(400).isEqualTo(reference);
        assertThat(cached).contains("dropped").anyMatch(s -> s.contains("/"));
    }

    /** Places 400 tasks drawn from the pods until the cluster is full; one line per task: node/GPUs or "dropped". */
    private static List<String> fill(Cluster c, List<Job> pods, FragmentationGradient fgd) {
        pods.forEach(fgd::onArrival);
        ClusterState state = new ClusterState(c);
        Workload w = new Workload(state, new FifoOrder(), PreemptionCosts.FREE, false);
        SplittableRandom random = new SplittableRandom(7);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Job pod = pods.get(random.nextInt(pods.size()));
            Slice s = fgd.placeOnNode(pod.demand(), state, node -> true);
            if (s == null) {
                out.add("dropped");
                continue;
            }
            ActiveJob a = w.arrive(pod.withArrival(i), 0);
            w.session(0).start(a, Placement.of(s), 1.0);
            out.add(s.node() + "/" + Arrays.toString(s.gpus()));
        }
        return out;
    }

    @Test
    void shouldMeasureFragmentationAgainstTheExactCpuRequest() {
        WorkloadProfile profile = new WorkloadProfile();
        profile.observe(new Demand(1, 1000, Set.of(), 12_500, 57_344));

        // one whole GPU and one half-used GPU left, and exactly the 12.5 cores the task asks for:
        // it fits, so only the half GPU is a fragment (rounding the request up to 13 cores made it all)
        double f = Fragmentation.node(new int[]{1000, 500}, 12_500, 65_536, "V100", profile.classes());

        assertThat(f).isEqualTo(500);
    }

    @Test
    void shouldCountMemoryOnlyInTheMemoryAwareMeasure() {
        Demand bigMemory = new Demand(1, 500, Set.of(), 4_000, 100_000);
        WorkloadProfile paper = new WorkloadProfile();
        WorkloadProfile memoryAware = new WorkloadProfile(WorkloadProfile.DEFAULT_COVERAGE, true);
        paper.observe(bigMemory);
        memoryAware.observe(bigMemory);

        // 1.3 GPUs free but only 64 GiB of memory: the paper sees a usable GPU (only the 0.3 sliver
        // is a fragment); counting memory, the task cannot run there, so all 1.3 GPUs are
        assertThat(Fragmentation.node(new int[]{1000, 300}, 8_000, 65_536, "T4", paper.classes())).isEqualTo(300);
        assertThat(Fragmentation.node(new int[]{1000, 300}, 8_000, 65_536, "T4", memoryAware.classes())).isEqualTo(1300);
    }

    @Test
    void shouldKeepTheMostPopularShapesUntilTheyCoverNinetyFivePercentOfTasks() {
        WorkloadProfile profile = new WorkloadProfile();
        for (int i = 0; i < 50; i++) {
            profile.observe(new Demand(1, 500, Set.of(), 4_000, 0));
        }
        for (int i = 0; i < 50; i++) {
            profile.observe(new Demand(1, 1000, Set.of(), 1_000 + i, 0)); // 50 rare shapes
        }

        List<WorkloadProfile.TaskClass> classes = profile.classes();

        // the popular shape and 45 rare ones cover 95 of the 100 tasks; the last 5 rare shapes are dropped
        assertThat(classes).hasSize(46);
        assertThat(classes.getFirst().share()).isEqualTo(50.0 / 95);
        assertThat(classes.stream().mapToDouble(WorkloadProfile.TaskClass::share).sum()).isCloseTo(1.0,
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldLeaveCpuOnlyTasksOutOfTheTargetWorkload() {
        WorkloadProfile profile = new WorkloadProfile();
        profile.observe(new Demand(0, 0, Set.of(), 8_000, 30_517));
        profile.observe(new Demand(1, 250, Set.of(), 8_000, 16_384));

        assertThat(profile.classes()).singleElement().extracting(WorkloadProfile.TaskClass::gpuMilli).isEqualTo(250);
    }
}
