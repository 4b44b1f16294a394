package dev.continuum.provider.training.backend;

import java.util.List;
import java.util.Set;

/**
 * A backend offering only some of its partitions: an operator gives the provider {@code gpu-a,gpu-b} of a
 * cluster whose other partitions belong to someone else. Only the inventory changes; the planner never places
 * a job outside it, and a request naming another partition is refused as unknown.
 */
public final class PartitionSubset implements TrainingBackend {
    private final TrainingBackend backend;
    private final Set<String> offered;

    public PartitionSubset(TrainingBackend backend, List<String> offered) {
        this.backend = backend;
        this.offered = Set.copyOf(offered);
    }

    @Override
    public String name() {
        return backend.name();
    }

    /** The offered partitions; fails naming the ones the backend does not have (a typo must not start empty). */
    @Override
    public BackendInventory inventory() throws BackendException {
        BackendInventory all = backend.inventory();
        List<String> missing = offered.stream().filter(p -> all.partition(p).isEmpty()).sorted().toList();
        if (!missing.isEmpty()) {
            throw new BackendException.Rejected("partitions", backend.name() + " has no partition " + String.join(", ", missing)
                    + " (it has " + String.join(", ", all.partitions().stream().map(BackendInventory.PartitionInventory::name).toList()) + ")");
        }
        return new BackendInventory(all.site(), all.partitions().stream().filter(p -> offered.contains(p.name())).toList());
    }

    @Override
    public BackendJobHandle submit(TrainingJobSpec spec, Placement placement) throws BackendException {
        return backend.submit(spec, placement);
    }

    @Override
    public BackendJobStatus status(BackendJobHandle handle) throws BackendException {
        return backend.status(handle);
    }

    @Override
    public void requestCheckpoint(BackendJobHandle handle, boolean stopAfter) throws BackendException {
        backend.requestCheckpoint(handle, stopAfter);
    }

    @Override
    public void cancel(BackendJobHandle handle) throws BackendException {
        backend.cancel(handle);
    }

    @Override
    public void close() {
        backend.close();
    }
}
