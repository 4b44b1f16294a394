package dev.continuum.placement.simulator;

import dev.continuum.placement.core.policy.Fragmentation;
import dev.continuum.placement.core.policy.WorkloadProfile;
import dev.continuum.placement.core.state.ClusterView;

import java.util.List;

/** Cluster fragmentation (FGD's measure) with per-node caching: only changed nodes are recomputed. */
final class FragmentationMeter {
    private final WorkloadProfile profile = new WorkloadProfile();
    private double[] cached = new double[0];
    private long[] version = new long[0];
    private List<WorkloadProfile.TaskClass> cachedFor;
    /** The view's change count when the cache was last brought up to date; -1: check every node. */
    private long seenChanges = -1;
    private double lastSum;

    WorkloadProfile profile() {
        return profile;
    }

    /** In GPUs. */
    double measure(ClusterView v) {
        List<WorkloadProfile.TaskClass> classes = profile.classes();
        if (classes.isEmpty()) {
            return 0;
        }
        if (cachedFor != classes || cached.length != v.nodeCount()) {
            cached = new double[v.nodeCount()];
            version = new long[v.nodeCount()];
            java.util.Arrays.fill(version, -1);
            cachedFor = classes;
            seenChanges = -1;
        }
        long changes = v.changeCount();
        if (seenChanges >= 0 && changes == seenChanges) {
            return lastSum / 1000.0;
        }
        if (seenChanges >= 0 && changes >= 0 && changes - seenChanges <= v.changeLogSize()) {
            for (long i = seenChanges; i < changes; i++) {
                refresh(v, v.changedNode(i), classes);
            }
        } else {
            for (int node = 0; node < v.nodeCount(); node++) {
                refresh(v, node, classes);
            }
        }
        seenChanges = changes;
        double sum = 0; // summed in node order every time, so the figure does not depend on the path
        for (double c : cached) {
            sum += c;
        }
        lastSum = sum;
        return sum / 1000.0;
    }

    private void refresh(ClusterView v, int node, List<WorkloadProfile.TaskClass> classes) {
        if (version[node] != v.nodeVersion(node) && v.spec(node).gpus() > 0) {
            cached[node] = Fragmentation.node(Fragmentation.freeOf(v, node), v.freeCpu(node), v.freeMemory(node),
                    v.spec(node).gpuModel(), classes);
            version[node] = v.nodeVersion(node);
        }
    }
}
