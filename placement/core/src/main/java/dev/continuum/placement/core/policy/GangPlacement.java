package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.Slice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Jobs larger than any node take whole GPUs on several nodes. Consolidating puts them in the
 * single rack that fits them most tightly, or else spans the fullest racks first; inside a rack
 * the nodes with most free GPUs go first. The naive variant takes nodes in index order wherever
 * they are.
 */
public final class GangPlacement {
    private GangPlacement() {
    }

    public static Placement place(Demand d, ClusterView v, boolean consolidate) {
        int k = d.gpus();
        if (v.fullyFreeGpusTotal() < k) {
            return null; // the common case for a big job waiting at the head of a busy queue
        }
        long cpuPerGpu = d.cpuMilli() / Math.max(1, k);
        long memPerGpu = d.memoryMib() / Math.max(1, k);
        int n = v.nodeCount();
        int[] usable = new int[n];
        long[] rackSum = new long[v.rackCount()];
        long total = 0;
        for (int node = 0; node < n; node++) {
            int u = v.fullyFreeGpus(node);
            if (u == 0 || !d.acceptsModel(v.spec(node).gpuModel())) {
                continue;
            }
            if (cpuPerGpu > 0) {
                u = (int) Math.min(u, v.freeCpu(node) / cpuPerGpu);
            }
            if (memPerGpu > 0) {
                u = (int) Math.min(u, v.freeMemory(node) / memPerGpu);
            }
            usable[node] = u;
            rackSum[v.rack(node)] += u;
            total += u;
        }
        if (total < k) {
            return null;
        }
        List<Slice> slices = new ArrayList<>();
        int left = k;
        if (!consolidate) {
            for (int node = 0; node < n && left > 0; node++) {
                left = take(v, node, usable[node], left, cpuPerGpu, memPerGpu, slices);
            }
            return new Placement(slices);
        }
        int bestRack = -1;
        for (int r = 0; r < rackSum.length; r++) {
            if (rackSum[r] >= k && (bestRack < 0 || rackSum[r] < rackSum[bestRack])) {
                bestRack = r;
            }
        }
        int[] racks = bestRack >= 0 ? new int[]{bestRack} : racksByFreeDescending(rackSum);
        for (int rack : racks) {
            if (left == 0) {
                break;
            }
            for (int node : nodesByFreeDescending(v, rack, usable)) {
                if (left == 0) {
                    break;
                }
                left = take(v, node, usable[node], left, cpuPerGpu, memPerGpu, slices);
            }
        }
        return new Placement(slices);
    }

    private static int take(ClusterView v, int node, int usable, int left, long cpuPerGpu, long memPerGpu, List<Slice> out) {
        int take = Math.min(left, usable);
        if (take <= 0) {
            return left;
        }
        int[] gpus = new int[take];
        int t = 0;
        for (int g = 0; g < v.spec(node).gpus() && t < take; g++) {
            if (v.freeGpuMilli(node, g) == 1000) {
                gpus[t++] = g;
            }
        }
        out.add(new Slice(node, gpus, 1000, cpuPerGpu * take, memPerGpu * take));
        return left - take;
    }

    /** Racks with free GPUs, fullest first (ties: lower index). */
    private static int[] racksByFreeDescending(long[] rackSum) {
        long[] keys = new long[rackSum.length];
        int count = 0;
        for (int r = 0; r < rackSum.length; r++) {
            if (rackSum[r] > 0) {
                keys[count++] = ((Long.MAX_VALUE >> 24) - rackSum[r]) << 20 | r;
            }
        }
        keys = Arrays.copyOf(keys, count);
        Arrays.sort(keys);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = (int) (keys[i] & ((1 << 20) - 1));
        }
        return out;
    }

    /** Nodes of one rack with usable GPUs, most usable first (ties: lower index). */
    private static int[] nodesByFreeDescending(ClusterView v, int rack, int[] usable) {
        long[] keys = new long[16];
        int count = 0;
        for (int node : v.nodesOfRack(rack)) {
            if (usable[node] > 0) {
                if (count == keys.length) {
                    keys = Arrays.copyOf(keys, count * 2);
                }
                keys[count++] = ((long) (1 << 20) - usable[node]) << 32 | node;
            }
        }
        keys = Arrays.copyOf(keys, count);
        Arrays.sort(keys);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = (int) (keys[i] & 0xFFFFFFFFL);
        }
        return out;
    }
}
