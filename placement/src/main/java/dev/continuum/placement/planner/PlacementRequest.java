package dev.continuum.placement.planner;

import dev.continuum.placement.model.Demand;
import java.util.List;
import java.util.Objects;

/**
 * What a job asks the planner for. Resources reuse the simulator's {@link Demand} so one policy code path serves
 * both. {@code deadlineEpochSeconds} (training) and {@code latencySloMillis} (inference) are 0 when absent.
 */
public record PlacementRequest(String id, Kind kind, String model, int minGpus, int maxGpus, Demand demand,
                               List<DataReference> data, long deadlineEpochSeconds, long latencySloMillis,
                               int priority, String tenant, String partition) {
    public enum Kind { INFERENCE, TRAINING }

    public PlacementRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(demand, "demand");
        model = model == null ? "" : model;
        data = data == null ? List.of() : List.copyOf(data);
        tenant = tenant == null ? "" : tenant;
        partition = partition == null ? "" : partition;
        if (minGpus < 0 || maxGpus < minGpus) {
            throw new IllegalArgumentException("minGpus/maxGpus: need 0 <= minGpus <= maxGpus");
        }
        if (deadlineEpochSeconds < 0 || latencySloMillis < 0) {
            throw new IllegalArgumentException("deadline/latencySlo: must not be negative");
        }
    }

    public long inputBytes() {
        return data.stream().mapToLong(DataReference::sizeBytes).sum();
    }
}
