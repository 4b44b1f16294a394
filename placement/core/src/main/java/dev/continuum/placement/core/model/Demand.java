package dev.continuum.placement.core.model;

import java.util.Set;

/**
 * What one job asks for. {@code gpuMilli} is the share of each GPU in thousandths: 1000 for whole
 * GPUs, less for a fractional (shared) GPU, in which case {@code gpus} is 1. An empty
 * {@code gpuModels} accepts any model.
 */
public record Demand(int gpus, int gpuMilli, Set<String> gpuModels, long cpuMilli, long memoryMib) {
    public Demand {
        gpuModels = gpuModels == null ? Set.of() : Set.copyOf(gpuModels);
        if (gpus < 0 || cpuMilli < 0 || memoryMib < 0) {
            throw new IllegalArgumentException("negative demand");
        }
        if (gpus == 0) {
            gpuMilli = 0;
        } else if (gpuMilli <= 0 || gpuMilli > 1000) {
            throw new IllegalArgumentException("gpu_milli must be in 1..1000, was " + gpuMilli);
        } else if (gpuMilli < 1000 && gpus != 1) {
            throw new IllegalArgumentException("a fractional GPU share needs exactly one GPU, got " + gpus);
        }
    }

    public static Demand wholeGpus(int gpus) {
        return new Demand(gpus, gpus == 0 ? 0 : 1000, Set.of(), 0, 0);
    }

    public boolean fractional() {
        return gpus == 1 && gpuMilli < 1000;
    }

    /** GPU demand in thousandths of a GPU. */
    public long totalGpuMilli() {
        return (long) gpus * gpuMilli;
    }

    public boolean acceptsModel(String model) {
        return gpuModels.isEmpty() || gpuModels.contains(model);
    }

    public Demand withGpus(int newGpus) {
        return new Demand(newGpus, newGpus == 0 ? 0 : gpuMilli, gpuModels, cpuMilli * Math.max(newGpus, 1) / Math.max(gpus, 1),
                memoryMib * Math.max(newGpus, 1) / Math.max(gpus, 1));
    }
}
