package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;

import java.util.List;
import java.util.PrimitiveIterator;

/** Read-only view of free capacity, for placement strategies. Nodes are numbered 0..n-1. */
public interface ClusterView {
    Cluster cluster();

    int nodeCount();

    NodeSpec spec(int node);

    /** Index of the node's rack, 0..rackCount-1. */
    int rack(int node);

    int rackCount();

    /** The nodes of one rack, in index order. */
    default int[] nodesOfRack(int rack) {
        return java.util.stream.IntStream.range(0, nodeCount()).filter(n -> rack(n) == rack).toArray();
    }

    int freeGpuMilli(int node, int gpu);

    /** GPUs on the node with nothing allocated. */
    int fullyFreeGpus(int node);

    long freeGpuMilliOnNode(int node);

    long freeCpu(int node);

    long freeMemory(int node);

    /** Changes every time the node's free capacity changes (lets strategies cache per-node scores). */
    long nodeVersion(int node);

    long allocatedGpuMilli();

    int totalGpus();

    /** GPUs with nothing allocated, cluster-wide. */
    int fullyFreeGpusTotal();

    /** GPUs of the largest node: jobs above it must span nodes. */
    int maxGpusPerNode();

    /** GPU milli held by non-borrowed jobs of the partition. */
    long guaranteedMilli(String partition);

    /** GPU milli held by all jobs of the partition, borrowed included. */
    long usedMilli(String partition);

    List<ActiveJob> jobsOn(int node);

    /**
     * Nodes with something allocated and at least {@code minFreeMilli} free GPU milli, least free
     * first (order among equals arbitrary), or null if this view keeps no such order: then callers
     * scan every node. Together with {@link #idleNodeRepresentatives} it lets best fit look at the
     * few tightest nodes instead of scoring all of them.
     */
    default PrimitiveIterator.OfInt nodesByFreeGpuMilli(long minFreeMilli) {
        return null;
    }

    /**
     * Nodes with their whole capacity free, one per group of identical nodes (same GPUs, model,
     * CPU and memory): the lowest-indexed, which wins every tie within its group. Only meaningful
     * where {@link #nodesByFreeGpuMilli} is not null.
     */
    default int[] idleNodeRepresentatives() {
        return null;
    }

    /** Most GPUs with nothing allocated on any one node. */
    default int mostFullyFreeGpusOnANode() {
        int most = 0;
        for (int n = 0; n < nodeCount(); n++) {
            most = Math.max(most, fullyFreeGpus(n));
        }
        return most;
    }

    /** Capacity changes so far (each bumps one node's {@link #nodeVersion}); -1 if this view does not log them. */
    default long changeCount() {
        return -1;
    }

    /**
     * The node the {@code i}-th change touched, for {@code i} in the last {@link #changeLogSize()}
     * changes; lets a per-node cache visit only changed nodes instead of checking every version.
     */
    default int changedNode(long i) {
        throw new IndexOutOfBoundsException("no change log");
    }

    default int changeLogSize() {
        return 0;
    }
}
