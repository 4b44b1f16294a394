package dev.continuum.placement.core.model;

import java.util.Objects;

/**
 * One machine: its accelerators (all of one model, as in every trace we read), CPU and memory.
 * {@code rack} names the switch domain; jobs spread over racks run slower (see {@link Topology}).
 */
public record NodeSpec(String id, String rack, int gpus, String gpuModel, long gpuMemoryMib,
                       long cpuMilli, long memoryMib) {
    public NodeSpec {
        Objects.requireNonNull(id, "id");
        rack = rack == null || rack.isBlank() ? "rack-0" : rack;
        gpuModel = gpuModel == null ? "" : gpuModel;
        if (gpus < 0 || cpuMilli < 0 || memoryMib < 0) {
            throw new IllegalArgumentException("node " + id + ": negative capacity");
        }
    }

    public Accelerator accelerator() {
        return new Accelerator(gpuModel, gpuMemoryMib);
    }
}
