package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;

/**
 * The node left with the least free GPU capacity (then least free CPU): packs jobs tightly and
 * keeps whole nodes free for large jobs. CPU-only jobs prefer nodes without GPUs.
 */
public final class BestFit extends ScoredPlacement {
    @Override public String name() { return "bestfit"; }

    @Override
    protected double score(Demand d, ClusterView v, int node) {
        double gpuLeft = v.freeGpuMilliOnNode(node) - d.totalGpuMilli();
        return gpuLeft + cpuFraction(v, node, d.cpuMilli());
    }

    /** The CPU fraction left is never negative on a node that fits. */
    @Override
    protected double scoreLowerBound(Demand d, long freeGpuMilliOnNode) {
        return freeGpuMilliOnNode - d.totalGpuMilli();
    }
}
