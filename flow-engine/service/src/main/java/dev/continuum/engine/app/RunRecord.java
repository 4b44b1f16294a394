package dev.continuum.engine.app;

import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

public record RunRecord(UUID id, UUID flowId, int flowVersion, String ownerId, String label, List<String> tags,
                        RunState state, Instant createdAt, Instant updatedAt, Instant completedAt) {}
