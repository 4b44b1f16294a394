package dev.continuum.placement.sim;

import dev.continuum.placement.policy.Fragmentation;
import dev.continuum.placement.policy.WorkloadProfile;
import dev.continuum.placement.state.ClusterView;

import java.util.List;

/** Cluster fragmentation (FGD's measure) with per-node caching: only changed nodes are recomputed. */
final class FragmentationMeter {
    private final WorkloadProfile profile = new WorkloadProfile();
    private double[] cached = new double[0];
    private long[] version = new long[0];
    private List<WorkloadProfile.TaskClass> cachedFor;

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
        }
        double sum = 0;
        for (int node = 0; node < v.nodeCount(); node++) {
            if (v.spec(node).gpus() == 0) {
                continue;
            }
            if (version[node] != v.nodeVersion(node)) {
                cached[node] = Fragmentation.node(Fragmentation.freeOf(v, node), v.freeCpu(node), v.freeMemory(node),
                        v.spec(node).gpuModel(), classes);
                version[node] = v.nodeVersion(node);
            }
            sum += cached[node];
        }
        return sum / 1000.0;
    }
}
