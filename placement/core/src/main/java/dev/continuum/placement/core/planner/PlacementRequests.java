package dev.continuum.placement.core.planner;

import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.api.PlacementBody.DataBody;
import dev.continuum.placement.api.PlacementBody.DemandBody;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.InvalidRequestException.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A request as callers send it ({@link PlacementBody}, the planner contract: everything but {@code kind} optional)
 * made the planner's {@link PlacementRequest}: the defaults filled in and every wrong field named, with the
 * request's own field names, so the planner's field errors point at what the caller wrote.
 */
public final class PlacementRequests {

    private PlacementRequests() {}

    /** The planner's request, or every field that is wrong in one {@link InvalidRequestException}. */
    public static PlacementRequest from(PlacementBody body) {
        List<FieldError> errors = new ArrayList<>();
        PlacementRequest.Kind k = kind(body.kind(), errors);
        Demand d = demand(body, k, errors);
        List<DataReference> refs = data(body.data(), errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        int min = body.minGpus() != null ? body.minGpus() : d.gpus();
        int max = body.maxGpus() != null ? body.maxGpus() : Math.max(min, d.gpus());
        String id = body.id();
        return new PlacementRequest(id == null || id.isBlank() ? UUID.randomUUID().toString() : id, k, body.model(), min,
                max, d, refs, orZero(body.deadlineEpochSeconds()), orZero(body.latencySloMillis()),
                body.priority() == null ? 0 : body.priority(), body.tenant(), body.partition(),
                orZero(body.estimatedSeconds()),
                body.preemptible() != null ? body.preemptible() : k == PlacementRequest.Kind.TRAINING,
                orZero(body.minGpuMemoryMib()), body.site());
    }

    private static PlacementRequest.Kind kind(String kind, List<FieldError> errors) {
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
    private static Demand demand(PlacementBody body, PlacementRequest.Kind k, List<FieldError> errors) {
        DemandBody b = body.demand() != null ? body.demand() : new DemandBody(null, null, null, null, null);
        int gpus = b.gpus() != null ? b.gpus() : body.minGpus() != null ? body.minGpus() : k == PlacementRequest.Kind.TRAINING ? 1 : 0;
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

    private static List<DataReference> data(List<DataBody> data, List<FieldError> errors) {
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
