package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A view of a cluster minus tentatively held slices: lets a policy plan several moves before making any. */
final class ClusterViewWithHolds implements ClusterView {
    private final ClusterView base;
    private final Map<Integer, int[]> heldMilli = new HashMap<>();
    private final Map<Integer, long[]> heldCpuMem = new HashMap<>();
    private long heldTotal;
    private long versionBump;

    ClusterViewWithHolds(ClusterView base) {
        this.base = base;
    }

    void hold(Slice s) {
        int[] h = heldMilli.computeIfAbsent(s.node(), n -> new int[base.spec(n).gpus()]);
        for (int g : s.gpus()) {
            h[g] += s.milliPerGpu();
        }
        long[] cm = heldCpuMem.computeIfAbsent(s.node(), n -> new long[2]);
        cm[0] += s.cpuMilli();
        cm[1] += s.memoryMib();
        heldTotal += s.gpuMilli();
        versionBump++;
    }

    @Override public Cluster cluster() { return base.cluster(); }
    @Override public int nodeCount() { return base.nodeCount(); }
    @Override public NodeSpec spec(int node) { return base.spec(node); }
    @Override public int rack(int node) { return base.rack(node); }
    @Override public int rackCount() { return base.rackCount(); }
    @Override public long allocatedGpuMilli() { return base.allocatedGpuMilli() + heldTotal; }
    @Override public int totalGpus() { return base.totalGpus(); }
    @Override public int maxGpusPerNode() { return base.maxGpusPerNode(); }

    @Override
    public int fullyFreeGpusTotal() {
        int total = base.fullyFreeGpusTotal();
        for (var e : heldMilli.entrySet()) {
            total -= base.fullyFreeGpus(e.getKey()) - fullyFreeGpus(e.getKey());
        }
        return total;
    }
    @Override public long guaranteedMilli(String partition) { return base.guaranteedMilli(partition); }
    @Override public long usedMilli(String partition) { return base.usedMilli(partition); }
    @Override public List<ActiveJob> jobsOn(int node) { return base.jobsOn(node); }

    @Override
    public long nodeVersion(int node) {
        return heldMilli.containsKey(node) ? -1 - versionBump : base.nodeVersion(node);
    }

    @Override
    public int freeGpuMilli(int node, int gpu) {
        int[] h = heldMilli.get(node);
        return base.freeGpuMilli(node, gpu) - (h == null ? 0 : h[gpu]);
    }

    @Override
    public int fullyFreeGpus(int node) {
        int[] h = heldMilli.get(node);
        if (h == null) {
            return base.fullyFreeGpus(node);
        }
        int n = 0;
        for (int g = 0; g < h.length; g++) {
            if (freeGpuMilli(node, g) == 1000) {
                n++;
            }
        }
        return n;
    }

    @Override
    public long freeGpuMilliOnNode(int node) {
        int[] h = heldMilli.get(node);
        long sum = base.freeGpuMilliOnNode(node);
        if (h != null) {
            for (int x : h) {
                sum -= x;
            }
        }
        return sum;
    }

    @Override
    public long freeCpu(int node) {
        long[] cm = heldCpuMem.get(node);
        return base.freeCpu(node) - (cm == null ? 0 : cm[0]);
    }

    @Override
    public long freeMemory(int node) {
        long[] cm = heldCpuMem.get(node);
        return base.freeMemory(node) - (cm == null ? 0 : cm[1]);
    }
}
