package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.function.IntPredicate;

/** Where on one node a demand goes: each strategy scores the nodes that can take it. */
public interface PlacementStrategy {
    /** Every node allowed: lets a strategy use the view's indexes instead of testing each node. */
    IntPredicate ANY_NODE = node -> true;

    String name();

    /** The chosen slice among nodes passing {@code allowed}, or null if none fits. */
    Slice placeOnNode(Demand demand, ClusterView cluster, IntPredicate allowed);

    /** Lets a strategy learn the workload (FGD's target distribution). */
    default void onArrival(Job job) {
    }
}
