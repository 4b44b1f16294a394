package dev.continuum.provider.inference;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the gateway for one inference job — for now the least-loaded online gateway that has the
 * model and enough free GPU memory (the placement issue replaces this with the planner's policies).
 * Pure: it sees only what heartbeats said.
 */
public final class DevicePlanner {

    /** A gateway as its last heartbeat described it. */
    public record Candidate(String deviceId, boolean online, List<String> modelRefs, long gpuMemoryFreeMb,
                            int gpuCount, int queuedTasks, int runningTasks, double cpuLoad) {
        public Candidate {
            modelRefs = List.copyOf(modelRefs);
        }

        int load() {
            return queuedTasks + runningTasks;
        }
    }

    /** What the job needs: a model reference, GPU memory (0 = none needed), a GPU at all, or one pinned device. */
    public record Demand(String model, long minGpuMemoryMb, boolean requireGpu, String pinnedDevice) {}

    public sealed interface Decision permits Placed, Unplaceable {}
    public record Placed(String deviceId) implements Decision {}
    /** No device fits; {@code reason} says which requirement ruled each out. */
    public record Unplaceable(String reason) implements Decision {}

    public Decision choose(List<Candidate> candidates, Demand demand) {
        List<Candidate> online = candidates.stream().filter(Candidate::online).toList();
        if (online.isEmpty()) {
            return new Unplaceable("no gateway is online");
        }
        List<Candidate> pinned = demand.pinnedDevice() == null ? online
                : online.stream().filter(c -> c.deviceId().equals(demand.pinnedDevice())).toList();
        if (pinned.isEmpty()) {
            return new Unplaceable("gateway " + demand.pinnedDevice() + " is not online");
        }
        List<Candidate> withModel = pinned.stream().filter(c -> c.modelRefs().contains(demand.model())).toList();
        if (withModel.isEmpty()) {
            return new Unplaceable("no online gateway has model " + demand.model());
        }
        boolean needGpu = demand.requireGpu() || demand.minGpuMemoryMb() > 0;
        List<Candidate> fits = withModel.stream()
                .filter(c -> !needGpu || (c.gpuCount() > 0 && c.gpuMemoryFreeMb() >= demand.minGpuMemoryMb()))
                .toList();
        if (fits.isEmpty()) {
            return new Unplaceable("no online gateway with model " + demand.model() + " has a GPU with "
                    + demand.minGpuMemoryMb() + " MB free");
        }
        return new Placed(fits.stream()
                .min(Comparator.comparingInt(Candidate::load)
                        .thenComparingDouble(Candidate::cpuLoad)
                        .thenComparing(Candidate::deviceId))
                .orElseThrow().deviceId());
    }
}
