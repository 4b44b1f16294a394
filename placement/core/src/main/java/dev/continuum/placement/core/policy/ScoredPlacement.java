package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.PrimitiveIterator;
import java.util.function.IntPredicate;


/** Scans every node that fits and keeps the lowest score; ties go to the lower node index. */
public abstract class ScoredPlacement implements PlacementStrategy {
    /** Score of putting the demand on a node that fits it; lower is better. */
    protected abstract double score(Demand d, ClusterView v, int node);

    /** Picks the slice on a node that fits; strategies that care which GPU override it. */
    protected Slice choose(Demand d, ClusterView v, int node) {
        return NodeFit.tightest(d, v, node);
    }

    /**
     * A score no node with this much free GPU milli can beat, or NaN if the strategy has none.
     * With one, nodes are visited least free first and the scan stops once the bound exceeds the
     * best score so far: the same node is chosen as by scoring them all.
     */
    protected double scoreLowerBound(Demand d, long freeGpuMilliOnNode) {
        return Double.NaN;
    }

    @Override
    public Slice placeOnNode(Demand d, ClusterView v, IntPredicate allowed) {
        PrimitiveIterator.OfInt order = allowed != ANY_NODE || Double.isNaN(scoreLowerBound(d, 0)) ? null
                : v.nodesByFreeGpuMilli(d.totalGpuMilli()); // less free GPU capacity than asked for never fits
        if (order != null) {
            return placeInOrder(d, v, v.idleNodeRepresentatives(), order);
        }
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

    /**
     * The same choice as scoring every node, with far fewer looked at: an idle node scores and
     * fits like every identical idle node, so the lowest-indexed of each group stands for all;
     * busy nodes come least free first, and none past the lower bound can win.
     */
    private Slice placeInOrder(Demand d, ClusterView v, int[] idleRepresentatives, PrimitiveIterator.OfInt busy) {
        int best = -1;
        double bestScore = Double.POSITIVE_INFINITY;
        for (int node : idleRepresentatives) {
            if (NodeFit.fits(d, v, node)) {
                double score = score(d, v, node);
                if (score < bestScore || score == bestScore && node < best) {
                    bestScore = score;
                    best = node;
                }
            }
        }
        while (busy.hasNext()) {
            int node = busy.nextInt();
            if (scoreLowerBound(d, v.freeGpuMilliOnNode(node)) > bestScore) {
                break;
            }
            if (NodeFit.fits(d, v, node)) {
                double score = score(d, v, node);
                if (score < bestScore || score == bestScore && node < best) {
                    bestScore = score;
                    best = node;
                }
            }
        }
        return best < 0 ? null : choose(d, v, best);
    }

    static double cpuFraction(ClusterView v, int node, long cpuTaken) {
        long cap = v.spec(node).cpuMilli();
        return cap == 0 ? 0 : (double) (v.freeCpu(node) - cpuTaken) / cap;
    }
}
