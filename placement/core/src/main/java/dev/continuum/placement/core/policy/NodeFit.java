package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Feasibility of a demand on one node, and the GPU choices it has there. */
public final class NodeFit {
    private static final int[] NO_GPUS = new int[0];

    private NodeFit() {
    }

    public static boolean fits(Demand d, ClusterView v, int node) {
        if (d.gpus() > 0 && !d.fractional() && v.fullyFreeGpus(node) < d.gpus()) {
            return false; // most selective test first: this runs for every node on every decision
        }
        if (v.freeCpu(node) < d.cpuMilli() || v.freeMemory(node) < d.memoryMib()) {
            return false;
        }
        if (d.gpus() == 0) {
            return true;
        }
        if (!d.acceptsModel(v.spec(node).gpuModel())) {
            return false;
        }
        if (!d.fractional()) {
            return v.fullyFreeGpus(node) >= d.gpus();
        }
        int gpus = v.spec(node).gpus();
        for (int g = 0; g < gpus; g++) {
            if (v.freeGpuMilli(node, g) >= d.gpuMilli()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why no node can take the demand ({@link Shortage} says in which order resources are
     * checked), or empty if some node can.
     */
    public static Optional<Shortage> shortage(Demand d, ClusterView v) {
        int reached = 0; // 1: GPU room, 2: and CPU, 3: and memory, 4: and the model (it fits)
        for (int node = 0; node < v.nodeCount() && reached < 4; node++) {
            int stage = 0;
            if (d.gpus() == 0 || gpuRoom(d, v, node)) {
                stage = 1;
                if (v.freeCpu(node) >= d.cpuMilli()) {
                    stage = 2;
                    if (v.freeMemory(node) >= d.memoryMib()) {
                        stage = d.gpus() == 0 || d.acceptsModel(v.spec(node).gpuModel()) ? 4 : 3;
                    }
                }
            }
            reached = Math.max(reached, stage);
        }
        return switch (reached) {
            case 0 -> Optional.of(d.fractional() ? Shortage.GPU_SHARE : Shortage.WHOLE_GPU);
            case 1 -> Optional.of(Shortage.CPU);
            case 2 -> Optional.of(Shortage.MEMORY);
            case 3 -> Optional.of(Shortage.GPU_MODEL);
            default -> Optional.empty();
        };
    }

    private static boolean gpuRoom(Demand d, ClusterView v, int node) {
        if (!d.fractional()) {
            return v.fullyFreeGpus(node) >= d.gpus();
        }
        for (int g = 0; g < v.spec(node).gpus(); g++) {
            if (v.freeGpuMilli(node, g) >= d.gpuMilli()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Distinct GPU choices on a node that fits: whole GPUs take the first free ones (which ones
     * does not matter); a fractional share may go on any GPU with room, one candidate per
     * distinct free amount (equal GPUs are interchangeable).
     */
    public static List<Slice> candidates(Demand d, ClusterView v, int node) {
        if (d.gpus() == 0) {
            return List.of(new Slice(node, NO_GPUS, 0, d.cpuMilli(), d.memoryMib()));
        }
        int gpus = v.spec(node).gpus();
        if (!d.fractional()) {
            int[] chosen = new int[d.gpus()];
            int k = 0;
            for (int g = 0; g < gpus && k < chosen.length; g++) {
                if (v.freeGpuMilli(node, g) == 1000) {
                    chosen[k++] = g;
                }
            }
            return List.of(new Slice(node, chosen, 1000, d.cpuMilli(), d.memoryMib()));
        }
        List<Slice> out = new ArrayList<>(2);
        int[] seen = new int[gpus];
        int distinct = 0;
        for (int g = 0; g < gpus; g++) {
            int free = v.freeGpuMilli(node, g);
            if (free < d.gpuMilli() || contains(seen, distinct, free)) {
                continue;
            }
            seen[distinct++] = free;
            out.add(new Slice(node, new int[]{g}, d.gpuMilli(), d.cpuMilli(), d.memoryMib()));
        }
        return out;
    }

    private static boolean contains(int[] a, int n, int x) {
        for (int i = 0; i < n; i++) {
            if (a[i] == x) {
                return true;
            }
        }
        return false;
    }

    /** The GPU with the least room that still fits a fractional share (best fit inside a node). */
    public static Slice tightest(Demand d, ClusterView v, int node) {
        List<Slice> c = candidates(d, v, node);
        if (!d.fractional() || c.size() == 1) {
            return c.getFirst();
        }
        Slice best = null;
        int bestFree = Integer.MAX_VALUE;
        for (Slice s : c) {
            int free = v.freeGpuMilli(node, s.gpus()[0]);
            if (free < bestFree) {
                bestFree = free;
                best = s;
            }
        }
        return best;
    }
}
