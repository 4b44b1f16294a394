package dev.continuum.placement.core.planner;

/** Input data a job reads: where it lives (a transfer endpoint id), its path there and its size in bytes. */
public record DataReference(String endpointId, String path, long sizeBytes) {
    public DataReference {
        if (endpointId == null || endpointId.isBlank()) {
            throw new InvalidRequestException("data.endpointId", "is required");
        }
        path = path == null ? "" : path;
        if (sizeBytes < 0) {
            throw new InvalidRequestException("data.sizeBytes", "must not be negative, was " + sizeBytes);
        }
    }
}
