package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.Placement;
import java.time.Instant;
import java.util.Optional;

/**
 * One entry of a job's history of moves: it was preempted, moved, resized or requeued at
 * {@code at}, from {@code from} to {@code to} (empty while it waits), at checkpoint step {@code step}.
 */
public record Move(Instant at, Kind kind, Placement from, Optional<Placement> to, String reason, long step) {
    public enum Kind { PREEMPTED, MIGRATED, RESIZED, REQUEUED, RESUMED }

    public Move withTo(Placement target) {
        return new Move(at, kind, from, Optional.of(target), reason, step);
    }
}
