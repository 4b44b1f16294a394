package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.function.IntPredicate;

/** The first node (by index) that fits. */
public final class FirstFit implements PlacementStrategy {
    @Override public String name() { return "firstfit"; }

    @Override
    public Slice placeOnNode(Demand d, ClusterView v, IntPredicate allowed) {
        for (int node = 0; node < v.nodeCount(); node++) {
            if (allowed.test(node) && NodeFit.fits(d, v, node)) {
                return NodeFit.tightest(d, v, node);
            }
        }
        return null;
    }
}
