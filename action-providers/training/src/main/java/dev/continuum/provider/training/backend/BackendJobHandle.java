package dev.continuum.provider.training.backend;

import java.util.Objects;

/**
 * A backend's own id for one run: a pid-based key locally, a Slurm job id, a Kubernetes Job
 * name. Opaque to the provider, which stores {@link #value()} and hands it back after a restart.
 */
public record BackendJobHandle(String backend, String value) {
    public BackendJobHandle {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("empty backend job handle");
        }
    }
}
