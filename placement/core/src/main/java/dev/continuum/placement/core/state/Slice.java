package dev.continuum.placement.core.state;

import java.util.Arrays;

/**
 * The part of a placement on one node: which of its GPUs (indices local to the node), the share
 * of each in thousandths, and the CPU and memory taken there.
 */
public record Slice(int node, int[] gpus, int milliPerGpu, long cpuMilli, long memoryMib) {
    public Slice {
        gpus = gpus.clone();
    }

    public long gpuMilli() {
        return (long) gpus.length * milliPerGpu;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Slice s && s.node == node && Arrays.equals(s.gpus, gpus) && s.milliPerGpu == milliPerGpu
                && s.cpuMilli == cpuMilli && s.memoryMib == memoryMib;
    }

    @Override
    public int hashCode() {
        return node * 31 + Arrays.hashCode(gpus);
    }

    @Override
    public String toString() {
        return "node" + node + Arrays.toString(gpus) + "@" + milliPerGpu;
    }
}
