package dev.continuum.provider.training.backend;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a backend offers, as the provider needs it to reject impossible requests and to feed the
 * planner: the site and its partitions. Reported by {@link TrainingBackend#inventory()}.
 */
public record BackendInventory(String site, List<PartitionInventory> partitions) {
    public BackendInventory {
        Objects.requireNonNull(site, "site");
        partitions = List.copyOf(partitions);
    }

    public Optional<PartitionInventory> partition(String name) {
        return partitions.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The partition a job lands in when it names none: the one marked default, else the first. */
    public Optional<PartitionInventory> defaultPartition() {
        return partitions.stream().filter(PartitionInventory::isDefault).findFirst()
                .or(() -> partitions.stream().findFirst());
    }

    /**
     * One partition: {@code nodes} nodes with {@code gpusPerNode} GPUs of {@code gpuModel} each
     * (empty model when it has no GPUs or the backend cannot tell), {@code cpusPerNode} CPUs and
     * {@code memoryMbPerNode} MiB.
     */
    public record PartitionInventory(String name, boolean isDefault, List<String> nodes, int gpusPerNode,
                                     Optional<String> gpuModel, int cpusPerNode, long memoryMbPerNode) {
        public PartitionInventory {
            Objects.requireNonNull(name, "name");
            nodes = List.copyOf(nodes);
            gpuModel = gpuModel == null ? Optional.empty() : gpuModel;
        }

        public int totalGpus() {
            return nodes.size() * gpusPerNode;
        }
    }
}
