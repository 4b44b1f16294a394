package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * FGD: place the task where (node and GPU) the cluster's fragmentation grows least (Weng et al.,
 * ATC'23, Algorithm 1: the node minimising F_n'(M) - F_n(M) after a hypothetical placement).
 * Scores are kept per node and recomputed only for nodes whose free capacity changed since
 * ({@link FragmentationCache}); within one decision, nodes in the same condition (GPU model,
 * multiset of free GPU shares, free CPU and memory) are scored once. Ties go to the lower node index.
 * {@code fgd} measures fragmentation as the paper does (GPU, CPU, GPU model); {@code fgd-mem} also
 * counts memory (see {@link WorkloadProfile}).
 */
public final class FragmentationGradient implements PlacementStrategy {
    private static final double[] DOES_NOT_FIT = {Double.POSITIVE_INFINITY, -1};

    private final String name;
    private final WorkloadProfile profile;
    private final FragmentationCache cache;

    public FragmentationGradient() {
        this(new WorkloadProfile());
    }

    /** FGD whose measure also counts memory: a node that cannot hold a task's memory is fragmented for it. */
    public static FragmentationGradient memoryAware() {
        return new FragmentationGradient("fgd-mem", new WorkloadProfile(WorkloadProfile.DEFAULT_COVERAGE, true), true);
    }

    public FragmentationGradient(WorkloadProfile profile) {
        this(profile, true);
    }

    /** @param incremental keep scores between decisions (false: recompute every node, the reference) */
    public FragmentationGradient(WorkloadProfile profile, boolean incremental) {
        this("fgd", profile, incremental);
    }

    private FragmentationGradient(String name, WorkloadProfile profile, boolean incremental) {
        this.name = name;
        this.profile = profile;
        this.cache = incremental ? new FragmentationCache() : null;
    }

    @Override public String name() { return name; }

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
        FragmentationCache.ShapeScores known = null;
        if (cache != null) {
            cache.sync(v, classes);
            known = cache.scores(d);
        }
        Map<String, double[]> sameCondition = new HashMap<>();
        int bestNode = -1;
        double bestDelta = Double.POSITIVE_INFINITY;
        double[] bestScored = null;
        for (int node = 0; node < v.nodeCount(); node++) {
            if (!allowed.test(node)) {
                continue;
            }
            long version = v.nodeVersion(node);
            if (known != null && known.knows(node, version)) {
                if (known.delta(node) < bestDelta) { // +infinity where the task does not fit
                    bestDelta = known.delta(node);
                    bestNode = node;
                    bestScored = null;
                }
                continue;
            }
            double[] scored;
            if (!NodeFit.fits(d, v, node)) {
                scored = DOES_NOT_FIT;
            } else {
                int n = node;
                scored = sameCondition.computeIfAbsent(condition(v, node),
                        k -> score(d, v, n, before(v, n, version, classes), classes));
            }
            if (known != null) {
                known.put(node, version, scored[0], (int) scored[1]);
            }
            if (scored[0] < bestDelta) {
                bestDelta = scored[0];
                bestNode = node;
                bestScored = scored;
            }
        }
        if (bestNode < 0) {
            return null;
        }
        int bestFree = bestScored != null ? (int) bestScored[1] : known.chosenFree(bestNode);
        if (!d.fractional()) {
            return NodeFit.candidates(d, v, bestNode).getFirst();
        }
        for (int g = 0; g < v.spec(bestNode).gpus(); g++) {
            if (v.freeGpuMilli(bestNode, g) == bestFree) {
                return new Slice(bestNode, new int[]{g}, d.gpuMilli(), d.cpuMilli(), d.memoryMib());
            }
        }
        throw new IllegalStateException("no GPU with " + bestFree + " milli free on node " + bestNode);
    }

    private double before(ClusterView v, int node, long version, List<WorkloadProfile.TaskClass> classes) {
        double known = cache == null ? Double.NaN : cache.fragmentation(node, version);
        if (!Double.isNaN(known)) {
            return known;
        }
        double f = Fragmentation.node(Fragmentation.freeOf(v, node), v.freeCpu(node), v.freeMemory(node),
                v.spec(node).gpuModel(), classes);
        if (cache != null) {
            cache.putFragmentation(node, version, f);
        }
        return f;
    }

    /**
     * {fragmentation increase, free milli of the chosen GPU (fractional tasks)}: a function of the
     * node's condition alone (not of the order of its GPUs), so it can be shared between nodes.
     */
    private static double[] score(Demand d, ClusterView v, int node, double before,
                                  List<WorkloadProfile.TaskClass> classes) {
        int[] free = Fragmentation.freeOf(v, node);
        String model = v.spec(node).gpuModel();
        long cpu = v.freeCpu(node) - d.cpuMilli();
        long mem = v.freeMemory(node) - d.memoryMib();
        if (d.gpus() == 0) {
            return new double[]{Fragmentation.node(free, cpu, mem, model, classes) - before, -1};
        }
        double best = Double.POSITIVE_INFINITY;
        int bestFree = -1;
        if (!d.fractional()) {
            int[] after = free.clone();
            int left = d.gpus();
            for (int g = 0; g < after.length && left > 0; g++) {
                if (after[g] == 1000) {
                    after[g] = 0;
                    left--;
                }
            }
            return new double[]{Fragmentation.node(after, cpu, mem, model, classes) - before, 1000};
        }
        for (int g = 0; g < free.length; g++) {
            if (free[g] < d.gpuMilli() || free[g] == bestFree) {
                continue;
            }
            int[] after = free.clone();
            after[g] -= d.gpuMilli();
            double delta = Fragmentation.node(after, cpu, mem, model, classes) - before;
            if (delta < best || (delta == best && free[g] < bestFree)) { // ties: the tightest GPU, whatever the order
                best = delta;
                bestFree = free[g];
            }
        }
        return new double[]{best, bestFree};
    }

    /** What a node's score depends on: equal GPUs are interchangeable, so their order is not. */
    private static String condition(ClusterView v, int node) {
        int[] free = Fragmentation.freeOf(v, node);
        Arrays.sort(free);
        return v.spec(node).gpuModel() + '/' + v.freeCpu(node) + '/' + v.freeMemory(node) + '/' + Arrays.toString(free);
    }
}
