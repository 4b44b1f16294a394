package dev.continuum.placement.core.model;

/**
 * A logical partition (virtual cluster): a GPU quota guaranteed to its jobs. With lending on,
 * idle quota may be borrowed by other partitions and is reclaimed by preemption.
 */
public record Partition(String name, int quotaGpus) {
    public Partition {
        if (quotaGpus < 0) {
            throw new IllegalArgumentException("partition " + name + ": negative quota");
        }
    }
}
