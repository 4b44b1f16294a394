package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.TrainingBackend;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One place jobs run: a backend with its partitions, the directory its checkpoints and models live under
 * ({@code root}: a job's locations are the same paths relative to every site's root) and the transfer provider's
 * endpoint serving that directory, through which checkpoints reach the site when a job moves here from another.
 * {@code workRoot} holds the backend's per-job files (logs, batch scripts).
 */
public record TrainingSite(String name, TrainingBackend backend, BackendInventory inventory, Path root,
                           Optional<String> transferEndpoint, Path workRoot) {
    public TrainingSite {
        if (name.isBlank() || name.contains("/")) {
            throw new IllegalArgumentException("a site name must be non-empty without '/': " + name);
        }
        if (!inventory.site().equals(name)) {
            throw new IllegalArgumentException("site " + name + " has a backend reporting site " + inventory.site());
        }
        root = root.toAbsolutePath().normalize();
    }
}
