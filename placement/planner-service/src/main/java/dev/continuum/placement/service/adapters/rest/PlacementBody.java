package dev.continuum.placement.service.adapters.rest;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.InvalidRequestException.FieldError;
import dev.continuum.placement.core.planner.PlacementRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * {@code POST /placements} as sent: the planner's {@link PlacementRequest} with everything but {@code kind}
 * optional. Field names are the request's own, so the planner's field errors point at what the caller wrote.
 */
public record PlacementBody(String id, String runId, String kind, String model, Integer minGpus, Integer maxGpus,
                            DemandBody demand, List<DataBody> data, Long deadlineEpochSeconds, Long latencySloMillis,
                            Integer priority, String tenant, String partition, Long estimatedSeconds,
                            Boolean preemptible, Long minGpuMemoryMib, String site) {

    /** GPUs ({@code gpuMilli} thousandths of each, 1000 = whole), accepted GPU models, CPU and memory. */
    public record DemandBody(Integer gpus, Integer gpuMilli, List<String> gpuModels, Long cpuMilli, Long memoryMib) {}

    /** An input: the endpoint holding it, its path there and its size. */
    public record DataBody(String endpointId, String path, Long sizeBytes) {}

    /** The planner's request, or every field that is wrong in one {@link InvalidRequestException}. */
    public PlacementRequest toRequest() {
        List<FieldError> errors = new ArrayList<>();
        PlacementRequest.Kind k = kind(errors);
        Demand d = demand(k, errors);
        List<DataReference> refs = data(errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        int min = minGpus != null ? minGpus : d.gpus();
        int max = maxGpus != null ? maxGpus : Math.max(min, d.gpus());
        return new PlacementRequest(id == null || id.isBlank() ? UUID.randomUUID().toString() : id, k, model, min,
                max, d, refs, orZero(deadlineEpochSeconds), orZero(latencySloMillis), priority == null ? 0 : priority,
                tenant, partition, orZero(estimatedSeconds),
                preemptible != null ? preemptible : k == PlacementRequest.Kind.TRAINING, orZero(minGpuMemoryMib), site);
    }

    private PlacementRequest.Kind kind(List<FieldError> errors) {
        if (kind == null) {
            errors.add(new FieldError("kind", "is required: inference or training"));
            return null;
        }
        try {
            return PlacementRequest.Kind.valueOf(kind.toUpperCase());
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("kind", "must be inference or training, was " + kind));
            return null;
        }
    }

    /** No demand: the GPUs of {@code minGpus}, else none for inference (a CPU gateway can run it), one for training. */
    private Demand demand(PlacementRequest.Kind k, List<FieldError> errors) {
        DemandBody b = demand != null ? demand : new DemandBody(null, null, null, null, null);
        int gpus = b.gpus() != null ? b.gpus() : minGpus != null ? minGpus : k == PlacementRequest.Kind.TRAINING ? 1 : 0;
        notNegative(errors, "demand.gpus", gpus);
        notNegative(errors, "demand.cpuMilli", orZero(b.cpuMilli()));
        notNegative(errors, "demand.memoryMib", orZero(b.memoryMib()));
        int milli = b.gpuMilli() != null ? b.gpuMilli() : 1000;
        if (gpus > 0 && (milli < 1 || milli > 1000)) {
            errors.add(new FieldError("demand.gpuMilli", "must be in 1..1000 (thousandths of a GPU), was " + milli));
        } else if (gpus > 1 && milli < 1000) {
            errors.add(new FieldError("demand.gpuMilli", "a share of a GPU needs exactly one GPU, demand.gpus was " + gpus));
        }
        if (!errors.isEmpty()) {
            return Demand.wholeGpus(0);
        }
        return new Demand(gpus, gpus == 0 ? 0 : milli, b.gpuModels() == null ? Set.of() : Set.copyOf(b.gpuModels()),
                orZero(b.cpuMilli()), orZero(b.memoryMib()));
    }

    private List<DataReference> data(List<FieldError> errors) {
        List<DataReference> out = new ArrayList<>();
        for (int i = 0; data != null && i < data.size(); i++) {
            DataBody b = data.get(i);
            if (b == null || b.endpointId() == null || b.endpointId().isBlank()) {
                errors.add(new FieldError("data[" + i + "].endpointId", "is required"));
            } else if (orZero(b.sizeBytes()) < 0) {
                errors.add(new FieldError("data[" + i + "].sizeBytes", "must not be negative, was " + b.sizeBytes()));
            } else {
                out.add(new DataReference(b.endpointId(), b.path(), orZero(b.sizeBytes())));
            }
        }
        return out;
    }

    private static void notNegative(List<FieldError> errors, String field, long value) {
        if (value < 0) {
            errors.add(new FieldError(field, "must not be negative, was " + value));
        }
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }
}
