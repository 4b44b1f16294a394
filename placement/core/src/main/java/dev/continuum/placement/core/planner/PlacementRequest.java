package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Demand;
import java.util.List;

/**
 * What a job asks the planner for. Resources reuse the simulator's {@link Demand} so one policy code path serves
 * both. {@code deadlineEpochSeconds} (training) and {@code latencySloMillis} (inference) are 0 when absent.
 * {@code estimatedSeconds} is the user's run-time estimate (orders SJF/SRTF queues; 0 = unknown) and
 * {@code preemptible} says the job can be checkpointed, stopped and moved (policies with preempt/migrate use it).
 * The constructor refuses what no inventory could make valid (negative numbers, max below min); the planner
 * checks the rest against the inventory. Both throw {@link InvalidRequestException} naming the field.
 */
public record PlacementRequest(String id, Kind kind, String model, int minGpus, int maxGpus, Demand demand,
                               List<DataReference> data, long deadlineEpochSeconds, long latencySloMillis,
                               int priority, String tenant, String partition, long estimatedSeconds,
                               boolean preemptible, long minGpuMemoryMib, String site) {
    public enum Kind { INFERENCE, TRAINING }

    public PlacementRequest {
        site = site == null ? "" : site;
        if (minGpuMemoryMib < 0) {
            throw new InvalidRequestException("minGpuMemoryMib", "must not be negative, was " + minGpuMemoryMib);
        }
        if (id == null || id.isBlank()) {
            throw new InvalidRequestException("id", "is required");
        }
        if (kind == null) {
            throw new InvalidRequestException("kind", "is required: INFERENCE or TRAINING");
        }
        if (demand == null) {
            throw new InvalidRequestException("demand", "is required");
        }
        model = model == null ? "" : model;
        data = data == null ? List.of() : List.copyOf(data);
        tenant = tenant == null ? "" : tenant;
        partition = partition == null ? "" : partition;
        if (minGpus < 0) {
            throw new InvalidRequestException("minGpus", "must not be negative, was " + minGpus);
        }
        if (maxGpus < minGpus) {
            throw new InvalidRequestException("maxGpus", "must be at least minGpus (" + minGpus + "), was " + maxGpus);
        }
        if (deadlineEpochSeconds < 0) {
            throw new InvalidRequestException("deadlineEpochSeconds", "must not be negative, was " + deadlineEpochSeconds);
        }
        if (latencySloMillis < 0) {
            throw new InvalidRequestException("latencySloMillis", "must not be negative, was " + latencySloMillis);
        }
        if (estimatedSeconds < 0) {
            throw new InvalidRequestException("estimatedSeconds", "must not be negative, was " + estimatedSeconds);
        }
    }

    /** Without a GPU memory floor or a pinned site (the shape before the planner service). */
    public PlacementRequest(String id, Kind kind, String model, int minGpus, int maxGpus, Demand demand,
                            List<DataReference> data, long deadlineEpochSeconds, long latencySloMillis,
                            int priority, String tenant, String partition, long estimatedSeconds,
                            boolean preemptible) {
        this(id, kind, model, minGpus, maxGpus, demand, data, deadlineEpochSeconds, latencySloMillis, priority,
                tenant, partition, estimatedSeconds, preemptible, 0, "");
    }

    /** The first shape of this record (issue 13 step 1): no run-time estimate, preemptible. */
    public PlacementRequest(String id, Kind kind, String model, int minGpus, int maxGpus, Demand demand,
                            List<DataReference> data, long deadlineEpochSeconds, long latencySloMillis,
                            int priority, String tenant, String partition) {
        this(id, kind, model, minGpus, maxGpus, demand, data, deadlineEpochSeconds, latencySloMillis, priority,
                tenant, partition, 0, true);
    }

    /** An inference job: a model run on its input data, within {@code latencySloMillis} (0 = no SLO). */
    public static PlacementRequest inference(String id, String model, Demand demand, List<DataReference> data,
                                             long latencySloMillis) {
        return new PlacementRequest(id, Kind.INFERENCE, model, demand.gpus(), demand.gpus(), demand, data, 0,
                latencySloMillis, 0, "", "", 0, false);
    }

    /** A rigid, preemptible training job on {@code partition} ("" = any) expected to run {@code estimatedSeconds}. */
    public static PlacementRequest training(String id, Demand demand, String partition, long estimatedSeconds) {
        return new PlacementRequest(id, Kind.TRAINING, "", demand.gpus(), demand.gpus(), demand, List.of(), 0, 0, 0,
                "", partition, estimatedSeconds, true);
    }

    public PlacementRequest withTenant(String newTenant) {
        return new PlacementRequest(id, kind, model, minGpus, maxGpus, demand, data, deadlineEpochSeconds,
                latencySloMillis, priority, newTenant, partition, estimatedSeconds, preemptible, minGpuMemoryMib, site);
    }

    public PlacementRequest withDeadline(long newDeadlineEpochSeconds) {
        return new PlacementRequest(id, kind, model, minGpus, maxGpus, demand, data, newDeadlineEpochSeconds,
                latencySloMillis, priority, tenant, partition, estimatedSeconds, preemptible, minGpuMemoryMib, site);
    }

    /**
     * Only sites whose GPUs have {@code mib} free (the gateway reports free memory; 0 = no floor), and only
     * {@code pinnedSite} when not empty (a user who names the device).
     */
    public PlacementRequest withGpuMemoryAndSite(long mib, String pinnedSite) {
        return new PlacementRequest(id, kind, model, minGpus, maxGpus, demand, data, deadlineEpochSeconds,
                latencySloMillis, priority, tenant, partition, estimatedSeconds, preemptible, mib, pinnedSite);
    }

    public long inputBytes() {
        return data.stream().mapToLong(DataReference::sizeBytes).sum();
    }

    /** GPUs the job cannot run with fewer of. */
    public int neededGpus() {
        return minGpus > 0 ? minGpus : demand.gpus();
    }

    /** The request field that states {@link #neededGpus()}, for error messages. */
    String neededGpusField() {
        return minGpus > 0 ? "minGpus" : "demand.gpus";
    }
}
