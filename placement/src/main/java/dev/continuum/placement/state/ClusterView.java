package dev.continuum.placement.state;

import dev.continuum.placement.model.Cluster;
import dev.continuum.placement.model.NodeSpec;

import java.util.List;

/** Read-only view of free capacity, for placement strategies. Nodes are numbered 0..n-1. */
public interface ClusterView {
    Cluster cluster();

    int nodeCount();

    NodeSpec spec(int node);

    /** Index of the node's rack, 0..rackCount-1. */
    int rack(int node);

    int rackCount();

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
}
