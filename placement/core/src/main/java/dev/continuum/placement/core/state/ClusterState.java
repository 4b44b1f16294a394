package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;

/**
 * Free capacity of every node, in flat arrays so that scanning 10,000 GPUs per decision stays
 * cheap. Only {@link Workload} and {@link Session} change it.
 */
public final class ClusterState implements ClusterView {
    private final Cluster cluster;
    private final int[] gpuOffset;
    private final int[] freeMilli;
    private final int[] fullyFree;
    private final long[] nodeFreeMilli;
    private final long[] freeCpu;
    private final long[] freeMem;
    private final long[] version;
    private final int[] rackIndex;
    private final int rackCount;
    private final int[][] rackNodes;
    private final int totalGpus;
    private final int maxGpusPerNode;
    private final List<List<ActiveJob>> jobsOnNode;
    private final Map<String, Long> guaranteed = new HashMap<>();
    private final Map<String, Long> used = new HashMap<>();
    /** Nodes with something allocated, by free GPU milli, for best fit. */
    private final FreeMilliIndex byFreeMilli;
    /** Group of identical nodes each node belongs to, and which nodes of each group are idle. */
    private final int[] nodeGroup;
    private final BitSet[] idleInGroup;
    /** nodesWithFullyFree[k]: nodes with exactly k fully free GPUs. */
    private final int[] nodesWithFullyFree;
    /** The node of each of the last CHANGE_LOG changes, by change number modulo its length. */
    private final int[] changeLog;
    private long changes;
    private long allocatedMilli;
    private int fullyFreeTotal;

    private static final int CHANGE_LOG = 4096;

    public ClusterState(Cluster cluster) {
        this.cluster = cluster;
        int n = cluster.nodes().size();
        gpuOffset = new int[n + 1];
        fullyFree = new int[n];
        nodeFreeMilli = new long[n];
        freeCpu = new long[n];
        freeMem = new long[n];
        version = new long[n];
        rackIndex = new int[n];
        jobsOnNode = new ArrayList<>(n);
        Map<String, Integer> racks = new HashMap<>();
        for (int i = 0; i < n; i++) {
            NodeSpec spec = cluster.nodes().get(i);
            gpuOffset[i + 1] = gpuOffset[i] + spec.gpus();
            fullyFree[i] = spec.gpus();
            nodeFreeMilli[i] = spec.gpus() * 1000L;
            freeCpu[i] = spec.cpuMilli();
            freeMem[i] = spec.memoryMib();
            rackIndex[i] = racks.computeIfAbsent(spec.rack(), r -> racks.size());
            jobsOnNode.add(new ArrayList<>(2));
        }
        rackCount = racks.size();
        rackNodes = new int[rackCount][];
        for (int r = 0; r < rackCount; r++) {
            int rack = r;
            rackNodes[r] = java.util.stream.IntStream.range(0, n).filter(i -> rackIndex[i] == rack).toArray();
        }
        totalGpus = gpuOffset[n];
        maxGpusPerNode = cluster.maxGpusPerNode();
        freeMilli = new int[totalGpus];
        fullyFreeTotal = totalGpus;
        Arrays.fill(freeMilli, 1000);
        byFreeMilli = new FreeMilliIndex(n, maxGpusPerNode * 1000);
        nodesWithFullyFree = new int[maxGpusPerNode + 1];
        nodeGroup = new int[n];
        Map<List<Object>, Integer> groups = new HashMap<>();
        for (int i = 0; i < n; i++) {
            NodeSpec spec = cluster.nodes().get(i);
            nodeGroup[i] = groups.computeIfAbsent(List.of(spec.gpus(), spec.gpuModel(), spec.gpuMemoryMib(),
                    spec.cpuMilli(), spec.memoryMib()), k -> groups.size());
            nodesWithFullyFree[fullyFree[i]]++;
        }
        idleInGroup = new BitSet[groups.size()];
        for (int g = 0; g < idleInGroup.length; g++) {
            idleInGroup[g] = new BitSet(n);
        }
        for (int i = 0; i < n; i++) {
            idleInGroup[nodeGroup[i]].set(i);
        }
        changeLog = new int[CHANGE_LOG];
    }

    private ClusterState(ClusterState o) {
        cluster = o.cluster;
        gpuOffset = o.gpuOffset;
        rackIndex = o.rackIndex;
        rackCount = o.rackCount;
        rackNodes = o.rackNodes;
        totalGpus = o.totalGpus;
        maxGpusPerNode = o.maxGpusPerNode;
        freeMilli = o.freeMilli.clone();
        fullyFree = o.fullyFree.clone();
        nodeFreeMilli = o.nodeFreeMilli.clone();
        freeCpu = o.freeCpu.clone();
        freeMem = o.freeMem.clone();
        version = o.version.clone();
        jobsOnNode = new ArrayList<>(o.jobsOnNode.size());
        for (List<ActiveJob> l : o.jobsOnNode) {
            jobsOnNode.add(new ArrayList<>(l));
        }
        guaranteed.putAll(o.guaranteed);
        used.putAll(o.used);
        allocatedMilli = o.allocatedMilli;
        fullyFreeTotal = o.fullyFreeTotal;
        byFreeMilli = o.byFreeMilli.copy();
        nodeGroup = o.nodeGroup;
        idleInGroup = new BitSet[o.idleInGroup.length];
        for (int g = 0; g < idleInGroup.length; g++) {
            idleInGroup[g] = (BitSet) o.idleInGroup[g].clone();
        }
        nodesWithFullyFree = o.nodesWithFullyFree.clone();
        changeLog = o.changeLog.clone();
        changes = o.changes;
    }


    /** An independent copy (for what-if planning). Active jobs are shared, not copied. */
    public ClusterState copy() {
        return new ClusterState(this);
    }

    @Override public Cluster cluster() { return cluster; }
    @Override public int nodeCount() { return fullyFree.length; }
    @Override public NodeSpec spec(int node) { return cluster.nodes().get(node); }
    @Override public int rack(int node) { return rackIndex[node]; }
    @Override public int rackCount() { return rackCount; }
    @Override public int[] nodesOfRack(int rack) { return rackNodes[rack]; } // callers only read it
    @Override public int freeGpuMilli(int node, int gpu) { return freeMilli[gpuOffset[node] + gpu]; }
    @Override public int fullyFreeGpus(int node) { return fullyFree[node]; }
    @Override public long freeCpu(int node) { return freeCpu[node]; }
    @Override public long freeMemory(int node) { return freeMem[node]; }
    @Override public long nodeVersion(int node) { return version[node]; }
    @Override public long allocatedGpuMilli() { return allocatedMilli; }
    @Override public int totalGpus() { return totalGpus; }
    @Override public int maxGpusPerNode() { return maxGpusPerNode; }
    @Override public int fullyFreeGpusTotal() { return fullyFreeTotal; }
    @Override public long guaranteedMilli(String partition) { return guaranteed.getOrDefault(partition, 0L); }
    @Override public long usedMilli(String partition) { return used.getOrDefault(partition, 0L); }
    @Override public List<ActiveJob> jobsOn(int node) { return jobsOnNode.get(node); }

    @Override
    public long freeGpuMilliOnNode(int node) {
        return nodeFreeMilli[node];
    }

    @Override
    public PrimitiveIterator.OfInt nodesByFreeGpuMilli(long minFreeMilli) {
        return byFreeMilli.from(minFreeMilli);
    }

    @Override
    public int[] idleNodeRepresentatives() {
        int[] out = new int[idleInGroup.length];
        int k = 0;
        for (BitSet idle : idleInGroup) {
            int first = idle.nextSetBit(0);
            if (first >= 0) {
                out[k++] = first;
            }
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    private boolean idle(int node) {
        NodeSpec spec = spec(node);
        return nodeFreeMilli[node] == spec.gpus() * 1000L && freeCpu[node] == spec.cpuMilli()
                && freeMem[node] == spec.memoryMib();
    }

    private void unindex(int node) {
        if (idle(node)) {
            idleInGroup[nodeGroup[node]].clear(node);
        } else {
            byFreeMilli.remove(node, (int) nodeFreeMilli[node]);
        }
        nodesWithFullyFree[fullyFree[node]]--;
    }

    private void index(int node) {
        if (idle(node)) {
            idleInGroup[nodeGroup[node]].set(node);
        } else {
            byFreeMilli.add(node, (int) nodeFreeMilli[node]);
        }
        nodesWithFullyFree[fullyFree[node]]++;
    }

    @Override
    public int mostFullyFreeGpusOnANode() {
        for (int k = nodesWithFullyFree.length - 1; k > 0; k--) {
            if (nodesWithFullyFree[k] > 0) {
                return k;
            }
        }
        return 0;
    }

    @Override public long changeCount() { return changes; }
    @Override public int changeLogSize() { return CHANGE_LOG; }

    @Override
    public int changedNode(long i) {
        if (i < changes - CHANGE_LOG || i >= changes) {
            throw new IndexOutOfBoundsException("change " + i + " is not in the log (" + changes + " changes)");
        }
        return changeLog[(int) (i % CHANGE_LOG)];
    }

    /** Whether the placement fits the current free capacity. */
    public boolean fits(Placement p) {
        for (Slice s : p.slices()) {
            if (freeCpu[s.node()] < s.cpuMilli() || freeMem[s.node()] < s.memoryMib()) {
                return false;
            }
            for (int g : s.gpus()) {
                if (g < 0 || g >= spec(s.node()).gpus() || freeMilli[gpuOffset[s.node()] + g] < s.milliPerGpu()) {
                    return false;
                }
            }
        }
        return true;
    }

    void allocate(ActiveJob job, Placement p, boolean borrowed) {
        if (!fits(p)) {
            throw new IllegalStateException("placement " + p + " of job " + job.job().id() + " does not fit");
        }
        apply(p, -1);
        for (Slice s : p.slices()) {
            jobsOnNode.get(s.node()).add(job);
        }
        long milli = p.gpuMilli();
        String part = job.job().partition();
        used.merge(part, milli, Long::sum);
        if (!borrowed) {
            guaranteed.merge(part, milli, Long::sum);
        }
    }

    void release(ActiveJob job, Placement p, boolean borrowed) {
        apply(p, +1);
        for (Slice s : p.slices()) {
            jobsOnNode.get(s.node()).remove(job);
        }
        long milli = p.gpuMilli();
        String part = job.job().partition();
        used.merge(part, -milli, Long::sum);
        if (!borrowed) {
            guaranteed.merge(part, -milli, Long::sum);
        }
    }

    private void apply(Placement p, int sign) {
        for (Slice s : p.slices()) {
            int node = s.node();
            unindex(node);
            for (int g : s.gpus()) {
                int idx = gpuOffset[node] + g;
                if (freeMilli[idx] == 1000) {
                    fullyFree[node]--;
                    fullyFreeTotal--;
                }
                freeMilli[idx] += sign * s.milliPerGpu();
                if (freeMilli[idx] == 1000) {
                    fullyFree[node]++;
                    fullyFreeTotal++;
                }
            }
            nodeFreeMilli[node] += sign * s.gpuMilli();
            freeCpu[node] += sign * s.cpuMilli();
            freeMem[node] += sign * s.memoryMib();
            version[node]++;
            changeLog[(int) (changes++ % CHANGE_LOG)] = node;
            index(node);
            allocatedMilli -= sign * s.gpuMilli();
        }
    }
}
