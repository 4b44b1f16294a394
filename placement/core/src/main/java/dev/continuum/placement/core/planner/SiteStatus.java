package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.planner.PlacementRequest.Kind;
import java.util.Set;

/**
 * What the last heartbeat or backend report said about a site: whether it is up, how many tasks wait in its
 * queue, which models it has loaded (empty = it loads any on demand) and which kinds of job it serves.
 */
public record SiteStatus(boolean online, int queuedTasks, Set<String> models, Set<Kind> serves) {
    public SiteStatus {
        models = models == null ? Set.of() : Set.copyOf(models);
        serves = serves == null ? Set.of() : Set.copyOf(serves);
        if (queuedTasks < 0) {
            throw new IllegalArgumentException("queuedTasks: must not be negative");
        }
    }

    /** An edge gateway or inference pool that is up with {@code queued} tasks waiting and these models loaded. */
    public static SiteStatus inference(int queued, Set<String> models) {
        return new SiteStatus(true, queued, models, Set.of(Kind.INFERENCE));
    }

    /** A datacenter training cluster (Slurm partition, node pool) that is up. */
    public static SiteStatus training() {
        return new SiteStatus(true, 0, Set.of(), Set.of(Kind.TRAINING));
    }

    public SiteStatus offline() {
        return new SiteStatus(false, queuedTasks, models, serves);
    }

    public SiteStatus withQueue(int queued) {
        return new SiteStatus(online, queued, models, serves);
    }

    public boolean serves(Kind kind) {
        return serves.contains(kind);
    }

    /** Whether the model is loaded here (a site listing no models loads any on demand). */
    public boolean hasModel(String model) {
        return models.isEmpty() || models.contains(model);
    }
}
