package dev.continuum.engine.app;

import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A run as stored. {@code runManagers} and {@code runMonitors} are the run's own role lists (Globus sets them per
 * run, at start or with PUT /runs/{id}); the flow's lists of the same names apply to every run of the flow.
 */
public record RunRecord(UUID id, UUID flowId, int flowVersion, String ownerId, String label, List<String> tags,
                        RunState state, Instant createdAt, Instant updatedAt, Instant completedAt,
                        List<String> runManagers, List<String> runMonitors) {

    public RunRecord {
        tags = List.copyOf(tags);
        runManagers = List.copyOf(runManagers);
        runMonitors = List.copyOf(runMonitors);
    }

    /** A run nobody but its owner and the flow's roles may see or manage. */
    public RunRecord(UUID id, UUID flowId, int flowVersion, String ownerId, String label, List<String> tags,
                     RunState state, Instant createdAt, Instant updatedAt, Instant completedAt) {
        this(id, flowId, flowVersion, ownerId, label, tags, state, createdAt, updatedAt, completedAt, List.of(), List.of());
    }
}
