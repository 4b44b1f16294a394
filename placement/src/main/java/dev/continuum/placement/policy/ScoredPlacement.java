package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Slice;

import java.util.function.IntPredicate;

/** Scans every node that fits and keeps the lowest score; ties go to the lower node index. */
public abstract class ScoredPlacement implements PlacementStrategy {
    /** Score of putting the demand on a node that fits it; lower is better. */
    protected abstract double score(Demand d, ClusterView v, int node);

    /** Picks the slice on a node that fits; strategies that care which GPU override it. */
    protected Slice choose(Demand d, ClusterView v, int node) {
        return NodeFit.tightest(d, v, node);
    }

    @Override
    public Slice placeOnNode(Demand d, ClusterView v, IntPredicate allowed) {
        int best = -1;
        double bestScore = Double.POSITIVE_INFINITY;
        int n = v.nodeCount();
        for (int node = 0; node < n; node++) {
            if (!allowed.test(node) || !NodeFit.fits(d, v, node)) {
                continue;
            }
            double score = score(d, v, node);
            if (score < bestScore) {
                bestScore = score;
                best = node;
            }
        }
        return best < 0 ? null : choose(d, v, best);
    }

    static double cpuFraction(ClusterView v, int node, long cpuTaken) {
        long cap = v.spec(node).cpuMilli();
        return cap == 0 ? 0 : (double) (v.freeCpu(node) - cpuTaken) / cap;
    }
}
