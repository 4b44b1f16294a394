package dev.continuum.placement.core.state;

import java.util.List;

/** Where a job runs: one slice per node it uses. */
public record Placement(List<Slice> slices) {
    public Placement {
        slices = List.copyOf(slices);
        if (slices.isEmpty()) {
            throw new IllegalArgumentException("a placement needs at least one slice");
        }
    }

    public static Placement of(Slice... slices) {
        return new Placement(List.of(slices));
    }

    public int gpuCount() {
        int n = 0;
        for (Slice s : slices) {
            n += s.gpus().length;
        }
        return n;
    }

    public long gpuMilli() {
        long m = 0;
        for (Slice s : slices) {
            m += s.gpuMilli();
        }
        return m;
    }

    public int nodeCount() {
        return slices.size();
    }

    public int firstNode() {
        return slices.getFirst().node();
    }

    public boolean usesNode(int node) {
        for (Slice s : slices) {
            if (s.node() == node) {
                return true;
            }
        }
        return false;
    }
}
