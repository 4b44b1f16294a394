package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.state.ClusterView;
import dev.continuum.placement.state.Placement;
import dev.continuum.placement.state.Slice;

import java.util.ArrayList;
import java.util.List;

/**
 * Jobs larger than any node take whole GPUs on several nodes. Consolidating puts them in the
 * single rack that fits them most tightly, or else spans the fewest, fullest racks; the naive
 * variant takes nodes in index order wherever they are.
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
            if (!d.acceptsModel(v.spec(node).gpuModel())) {
                continue;
            }
            int u = v.fullyFreeGpus(node);
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
        // sort keys: [rack rank | rack | free GPUs (more first) | node], packed in a long
        int[] rackRank = new int[rackSum.length];
        if (consolidate) {
            int bestRack = -1;
            for (int r = 0; r < rackSum.length; r++) {
                if (rackSum[r] >= k && (bestRack < 0 || rackSum[r] < rackSum[bestRack])) {
                    bestRack = r;
                }
            }
            for (int r = 0; r < rackSum.length; r++) {
                // the tightest rack that fits, else the fullest racks first
                rackRank[r] = bestRack >= 0 ? (r == bestRack ? 0 : 1) : (int) Math.min(1 << 20, Math.max(0, (1 << 20) - rackSum[r]));
            }
        }
        long[] keys = new long[n];
        int count = 0;
        for (int node = 0; node < n; node++) {
            if (usable[node] > 0) {
                int r = consolidate ? v.rack(node) : 0;
                long key = ((long) rackRank[r] << 42) | ((long) r << 27) | ((long) (1023 - Math.min(1023, usable[node])) << 17);
                keys[count++] = consolidate ? (key << 0) | node : node;
            }
        }
        keys = java.util.Arrays.copyOf(keys, count);
        java.util.Arrays.sort(keys);
        List<Integer> order = new ArrayList<>(count);
        for (long key : keys) {
            order.add((int) (key & ((1 << 17) - 1)));
        }
        List<Slice> slices = new ArrayList<>();
        int left = k;
        for (int node : order) {
            if (left == 0) {
                break;
            }
            int take = Math.min(left, usable[node]);
            int[] gpus = new int[take];
            int t = 0;
            for (int g = 0; g < v.spec(node).gpus() && t < take; g++) {
                if (v.freeGpuMilli(node, g) == 1000) {
                    gpus[t++] = g;
                }
            }
            slices.add(new Slice(node, gpus, 1000, cpuPerGpu * take, memPerGpu * take));
            left -= take;
        }
        return new Placement(slices);
    }
}
