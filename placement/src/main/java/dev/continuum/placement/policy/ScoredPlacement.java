package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Slice;

import java.util.function.IntPredicate;

/** Scans every node that fits and keeps the lowest score; ties go to the lower node index. */
public abstract class ScoredPlacement implements PlacementStrategy {
    /** Score of putting {@code slice} on its node; lower is better. */
    protected abstract double score(Demand d, ClusterView v, Slice slice);

    /** Picks the slice on a node that fits; strategies that care which GPU override it. */
    protected Slice choose(Demand d, ClusterView v, int node) {
        return NodeFit.tightest(d, v, node);
    }

    @Override
    public Slice placeOnNode(Demand d, ClusterView v, IntPredicate allowed) {
        Slice best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        int n = v.nodeCount();
        for (int node = 0; node < n; node++) {
            if (!allowed.test(node) || !NodeFit.fits(d, v, node)) {
                continue;
            }
            Slice s = choose(d, v, node);
            if (s == null) {
                continue;
            }
            double score = score(d, v, s);
            if (score < bestScore) {
                bestScore = score;
                best = s;
            }
        }
        return best;
    }

    static double cpuFraction(ClusterView v, int node, long cpuTaken) {
        long cap = v.spec(node).cpuMilli();
        return cap == 0 ? 0 : (double) (v.freeCpu(node) - cpuTaken) / cap;
    }
}
