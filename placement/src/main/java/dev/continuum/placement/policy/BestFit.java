package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Slice;

/**
 * The node left with the least free GPU capacity (then least free CPU): packs jobs tightly and
 * keeps whole nodes free for large jobs. CPU-only jobs prefer nodes without GPUs.
 */
public final class BestFit extends ScoredPlacement {
    @Override public String name() { return "bestfit"; }

    @Override
    protected double score(Demand d, ClusterView v, Slice s) {
        double gpuLeft = v.freeGpuMilliOnNode(s.node()) - s.gpuMilli();
        return gpuLeft + cpuFraction(v, s.node(), s.cpuMilli());
    }
}
