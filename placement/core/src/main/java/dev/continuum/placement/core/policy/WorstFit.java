package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

/** The node left with the most free GPU capacity: spreads load (and fragments the cluster). */
public final class WorstFit extends ScoredPlacement {
    @Override public String name() { return "worstfit"; }

    @Override
    protected double score(Demand d, ClusterView v, int node) {
        double gpuLeft = v.freeGpuMilliOnNode(node) - d.totalGpuMilli();
        return -(gpuLeft + cpuFraction(v, node, d.cpuMilli()));
    }

    @Override
    protected Slice choose(Demand d, ClusterView v, int node) {
        // spread inside the node too: the fractional share goes on the emptiest GPU
        Slice best = null;
        int bestFree = -1;
        for (Slice s : NodeFit.candidates(d, v, node)) {
            int free = s.gpus().length == 0 ? 0 : v.freeGpuMilli(node, s.gpus()[0]);
            if (free > bestFree) {
                bestFree = free;
                best = s;
            }
        }
        return best;
    }
}
