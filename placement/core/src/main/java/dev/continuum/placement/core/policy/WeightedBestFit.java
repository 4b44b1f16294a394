package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;

/**
 * Best fit as the FGD paper's baseline defines it: the node with the least remaining resources,
 * as the equally weighted sum of the remaining GPU and CPU shares of the node. Unlike
 * {@link BestFit} it will trade GPU packing for CPU packing.
 */
public final class WeightedBestFit extends ScoredPlacement {
    @Override public String name() { return "bestfit-weighted"; }

    @Override
    protected double score(Demand d, ClusterView v, int node) {
        var spec = v.spec(node);
        double gpu = spec.gpus() == 0 ? 0 : (v.freeGpuMilliOnNode(node) - d.totalGpuMilli()) / (spec.gpus() * 1000.0);
        return gpu + cpuFraction(v, node, d.cpuMilli());
    }
}
