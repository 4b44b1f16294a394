package dev.continuum.provider.training.backend;

import java.util.List;
import java.util.Objects;

/**
 * Where a run goes (as the provider asks in {@link TrainingBackend#submit}) or went (as the
 * backend reports in {@link BackendJobStatus}). {@code nodes} and {@code gpuIds} are empty in a
 * request that leaves the choice to the backend; a report fills them in. {@code gpus} is the world
 * size in GPUs: the job runs one process per GPU (or one process when {@code gpus} is 0).
 */
public record Placement(String site, String partition, int gpus, List<String> nodes, List<String> gpuIds) {
    public Placement {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(partition, "partition");
        if (gpus < 0) {
            throw new IllegalArgumentException("negative gpus");
        }
        nodes = List.copyOf(nodes == null ? List.of() : nodes);
        gpuIds = List.copyOf(gpuIds == null ? List.of() : gpuIds);
    }

    /** A request: this many GPUs in this partition, nodes and devices chosen by the backend. */
    public static Placement request(String site, String partition, int gpus) {
        return new Placement(site, partition, gpus, List.of(), List.of());
    }

    /** The number of processes a run gets: one per GPU, at least one. */
    public int worldSize() {
        return Math.max(1, gpus);
    }

    public Placement withAssignment(List<String> assignedNodes, List<String> assignedGpuIds) {
        return new Placement(site, partition, gpus, assignedNodes, assignedGpuIds);
    }
}
