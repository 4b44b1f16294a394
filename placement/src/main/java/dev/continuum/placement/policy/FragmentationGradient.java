package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.model.Job;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Slice;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * FGD: place the task where (node and GPU) the cluster's fragmentation grows least. Nodes in the
 * same condition score the same, so scores are memoized per node shape within one decision and
 * each node's current fragmentation is cached until the node changes.
 */
public final class FragmentationGradient implements PlacementStrategy {
    private final WorkloadProfile profile;
    private double[] cachedFrag = new double[0];
    private long[] cachedVersion = new long[0];
    private List<WorkloadProfile.TaskClass> cachedFor;
    private ClusterView cachedView;

    public FragmentationGradient() {
        this(new WorkloadProfile());
    }

    public FragmentationGradient(WorkloadProfile profile) {
        this.profile = profile;
    }

    @Override public String name() { return "fgd"; }

    @Override
    public void onArrival(Job job) {
        profile.observe(job.demand());
    }

    @Override
    public Slice placeOnNode(Demand d, ClusterView v, IntPredicate allowed) {
        if (profile.classes().isEmpty()) {
            profile.observe(d);
        }
        List<WorkloadProfile.TaskClass> classes = profile.classes();
        prepareCache(v, classes);
        Map<Long, Double> memo = new HashMap<>();
        Slice best = null;
        double bestDelta = Double.POSITIVE_INFINITY;
        for (int node = 0; node < v.nodeCount(); node++) {
            if (!allowed.test(node) || !NodeFit.fits(d, v, node)) {
                continue;
            }
            int[] free = Fragmentation.freeOf(v, node);
            String model = v.spec(node).gpuModel();
            double before = before(v, node, free, classes);
            for (Slice s : NodeFit.candidates(d, v, node)) {
                int[] after = free.clone();
                for (int g : s.gpus()) {
                    after[g] -= s.milliPerGpu();
                }
                long cpu = v.freeCpu(node) - s.cpuMilli();
                long mem = v.freeMemory(node) - s.memoryMib();
                int[] key = after.clone();
                Arrays.sort(key);
                long sig = model.hashCode();
                for (int k : key) {
                    sig = sig * 1_000_003L + k;
                }
                sig = (sig * 31 + cpu) * 31 + mem;
                sig = sig * 31 + Double.doubleToLongBits(before);
                double delta = memo.computeIfAbsent(sig, k -> Fragmentation.node(after, cpu, mem, model, classes) - before);
                if (delta < bestDelta) {
                    bestDelta = delta;
                    best = s;
                }
            }
        }
        return best;
    }

    private void prepareCache(ClusterView v, List<WorkloadProfile.TaskClass> classes) {
        if (cachedView != v || cachedFrag.length != v.nodeCount() || cachedFor != classes) {
            cachedView = v;
            cachedFrag = new double[v.nodeCount()];
            cachedVersion = new long[v.nodeCount()];
            Arrays.fill(cachedVersion, -1);
            cachedFor = classes;
        }
    }

    private double before(ClusterView v, int node, int[] free, List<WorkloadProfile.TaskClass> classes) {
        if (cachedVersion[node] != v.nodeVersion(node)) {
            cachedFrag[node] = Fragmentation.node(free, v.freeCpu(node), v.freeMemory(node), v.spec(node).gpuModel(), classes);
            cachedVersion[node] = v.nodeVersion(node);
        }
        return cachedFrag[node];
    }
}
