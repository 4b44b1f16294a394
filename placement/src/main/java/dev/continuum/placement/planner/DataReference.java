package dev.continuum.placement.planner;

import java.util.Objects;

/** Input data a job reads: where it lives (a transfer endpoint id), its path there and its size in bytes. */
public record DataReference(String endpointId, String path, long sizeBytes) {
    public DataReference {
        Objects.requireNonNull(endpointId, "endpointId");
        Objects.requireNonNull(path, "path");
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes: must not be negative");
        }
    }
}
