package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.model.Job;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Slice;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * FGD: place the task where (node and GPU) the cluster's fragmentation grows least. Nodes in the
 * same condition (GPU model, multiset of free GPU shares, free CPU and memory) score the same,
 * so each decision scores every distinct node shape once.
 */
public final class FragmentationGradient implements PlacementStrategy {
    private final WorkloadProfile profile;

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
        Map<Long, double[]> memo = new HashMap<>();
        int bestNode = -1;
        int bestFree = -1;
        double bestDelta = Double.POSITIVE_INFINITY;
        for (int node = 0; node < v.nodeCount(); node++) {
            if (!allowed.test(node) || !NodeFit.fits(d, v, node)) {
                continue;
            }
            String model = v.spec(node).gpuModel();
            long sig = signature(model, v, node);
            double[] scored = memo.get(sig);
            if (scored == null) {
                scored = score(d, v, node, Fragmentation.freeOf(v, node), model, classes);
                memo.put(sig, scored);
            }
            if (scored[0] < bestDelta) {
                bestDelta = scored[0];
                bestNode = node;
                bestFree = (int) scored[1];
            }
        }
        if (bestNode < 0) {
            return null;
        }
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

    /** {fragmentation increase, free milli of the chosen GPU (fractional tasks)}. */
    private static double[] score(Demand d, ClusterView v, int node, int[] free, String model,
                                  List<WorkloadProfile.TaskClass> classes) {
        long cpu = v.freeCpu(node) - d.cpuMilli();
        long mem = v.freeMemory(node) - d.memoryMib();
        double before = Fragmentation.node(free, v.freeCpu(node), v.freeMemory(node), model, classes);
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
            if (delta < best) {
                best = delta;
                bestFree = free[g];
            }
        }
        return new double[]{best, bestFree};
    }

    private static long signature(String model, ClusterView v, int node) {
        long cpu = v.freeCpu(node);
        long mem = v.freeMemory(node);
        long multiset = 0;
        int gpus = v.spec(node).gpus();
        for (int g = 0; g < gpus; g++) {
            int f = v.freeGpuMilli(node, g);
            long x = (f + 1) * 0x9E3779B97F4A7C15L;
            x ^= x >>> 29;
            multiset += x * 0xBF58476D1CE4E5B9L; // order-independent: equal GPUs are interchangeable
        }
        return ((model.hashCode() * 31L + multiset) * 1_000_003L + cpu) * 1_000_003L + mem;
    }
}
