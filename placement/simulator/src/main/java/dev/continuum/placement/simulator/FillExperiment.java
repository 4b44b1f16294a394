package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.policy.FifoOrder;
import dev.continuum.placement.core.policy.NodeFit;
import dev.continuum.placement.core.policy.PlacementStrategy;
import dev.continuum.placement.core.policy.Shortage;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * FGD's evaluation (Weng et al., ATC'23, section 6): tasks sampled from the trace keep arriving
 * and never leave; a task that finds no node is dropped. As the arrived GPU demand grows past
 * the cluster's capacity, a placement that fragments the cluster leaves more GPUs unallocated.
 * Reports the unallocated GPUs at each step of arrived demand, and for every dropped task which
 * resource ran out ({@link Shortage}).
 */
public final class FillExperiment {
    /**
     * @param arrivedPercent   arrived GPU demand as % of cluster GPUs, one per step
     * @param unallocatedGpus  free GPUs at that step (mean over repetitions)
     * @param dropped          per resource that ran out, tasks dropped up to each step (mean over repetitions)
     * @param droppedGpus      per resource that ran out, GPUs the dropped tasks asked for (mean over repetitions)
     */
    public record Result(String placement, int repetitions, double[] arrivedPercent, double[] unallocatedGpus,
                         double failedTasks, Map<Shortage, double[]> dropped, Map<Shortage, Double> droppedGpus,
                         long wallMillis) {
        /** Tasks dropped for this shortage over the whole run (mean over repetitions). */
        public double droppedFor(Shortage s) {
            double[] curve = dropped.get(s);
            return curve.length == 0 ? 0 : curve[curve.length - 1];
        }

        /** Unallocated GPUs once arrivals reach {@code percent} of capacity. */
        public double unallocatedAt(double percent) {
            for (int i = 0; i < arrivedPercent.length; i++) {
                if (arrivedPercent[i] >= percent - 1e-9) {
                    return unallocatedGpus[i];
                }
            }
            return unallocatedGpus[unallocatedGpus.length - 1];
        }
    }

    private FillExperiment() {
    }

    /**
     * @param pods     the task population to sample from (held in memory: a pod list is small)
     * @param stepPct  granularity of the curve, in % of capacity
     * @param upToPct  stop when arrived demand reaches this % of capacity
     */
    public static Result run(Cluster cluster, List<Job> pods, java.util.function.Supplier<PlacementStrategy> strategies,
                             int repetitions, long seed, double stepPct, double upToPct) {
        long start = System.nanoTime();
        int steps = (int) Math.round(upToPct / stepPct);
        double[] arrived = new double[steps];
        double[] unallocated = new double[steps];
        double failedSum = 0;
        Shortage[] kinds = Shortage.values();
        Map<Shortage, double[]> dropped = new EnumMap<>(Shortage.class);
        Map<Shortage, Double> droppedGpus = new EnumMap<>(Shortage.class);
        for (Shortage k : kinds) {
            dropped.put(k, new double[steps]);
            droppedGpus.put(k, 0.0);
        }
        String name = "";
        for (int rep = 0; rep < repetitions; rep++) {
            PlacementStrategy strategy = strategies.get();
            name = strategy.name();
            for (Job p : pods) {
                strategy.onArrival(p); // FGD's target workload: the trace's own task distribution
            }
            ClusterState state = new ClusterState(cluster);
            Workload w = new Workload(state, new FifoOrder(), PreemptionCosts.FREE, false);
            SplittableRandom random = new SplittableRandom(seed + rep);
            double capacity = state.totalGpus() * 1000.0;
            double arrivedMilli = 0;
            long failed = 0;
            long[] failedBy = new long[kinds.length];
            long seq = 0;
            int step = 0;
            while (step < steps) {
                Job pod = pods.get(random.nextInt(pods.size()));
                if (pod.demand().gpus() > 0) {
                    arrivedMilli += pod.demand().totalGpuMilli();
                }
                Slice s = strategy.placeOnNode(pod.demand(), state, PlacementStrategy.ANY_NODE);
                if (s == null) {
                    failed++;
                    double gpus = pod.demand().totalGpuMilli() / 1000.0 / repetitions;
                    NodeFit.shortage(pod.demand(), state).ifPresent(k -> {
                        failedBy[k.ordinal()]++;
                        droppedGpus.merge(k, gpus, Double::sum);
                    });
                } else {
                    ActiveJob a = w.arrive(pod.withArrival(seq++), 0);
                    w.session(0).start(a, Placement.of(s), 1.0);
                }
                while (step < steps && arrivedMilli >= capacity * (step + 1) * stepPct / 100) {
                    arrived[step] = (step + 1) * stepPct;
                    unallocated[step] += (capacity - state.allocatedGpuMilli()) / 1000.0 / repetitions;
                    for (Shortage k : kinds) {
                        dropped.get(k)[step] += (double) failedBy[k.ordinal()] / repetitions;
                    }
                    step++;
                }
            }
            failedSum += (double) failed / repetitions;
        }
        return new Result(name, repetitions, arrived, unallocated, failedSum, dropped, droppedGpus,
                (System.nanoTime() - start) / 1_000_000);
    }
}
