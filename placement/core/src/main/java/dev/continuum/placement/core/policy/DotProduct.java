package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;

/**
 * Tetris-style alignment: the node whose free (GPU, CPU, memory) vector, normalized by its
 * capacity, has the largest dot product with the demand normalized the same way.
 */
public final class DotProduct extends ScoredPlacement {
    @Override public String name() { return "dotprod"; }

    @Override
    protected double score(Demand d, ClusterView v, int node) {
        var spec = v.spec(node);
        double dot = 0;
        if (spec.gpus() > 0) {
            double cap = spec.gpus() * 1000.0;
            dot += (d.totalGpuMilli() / cap) * (v.freeGpuMilliOnNode(node) / cap);
        }
        if (spec.cpuMilli() > 0) {
            dot += ((double) d.cpuMilli() / spec.cpuMilli()) * ((double) v.freeCpu(node) / spec.cpuMilli());
        }
        if (spec.memoryMib() > 0) {
            dot += ((double) d.memoryMib() / spec.memoryMib()) * ((double) v.freeMemory(node) / spec.memoryMib());
        }
        return -dot;
    }
}
