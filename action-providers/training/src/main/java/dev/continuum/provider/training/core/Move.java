package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.Placement;
import java.time.Instant;
import java.util.Optional;

/**
 * One entry of a job's history of moves: it was preempted, moved, resized or requeued at
 * {@code at}, from {@code from} to {@code to} (empty while it waits), at checkpoint step {@code step};
 * {@code carried} when the move crossed sites and its checkpoint went through the transfer provider.
 */
public record Move(Instant at, Kind kind, Placement from, Optional<Placement> to, String reason, long step,
                   Optional<Carried> carried) {
    public enum Kind { PREEMPTED, MIGRATED, RESIZED, REQUEUED, RESUMED }

    public Move(Instant at, Kind kind, Placement from, Optional<Placement> to, String reason, long step) {
        this(at, kind, from, to, reason, step, Optional.empty());
    }

    /**
     * A checkpoint carried between sites: its name, the bytes the transfer action moved, its SHA-256 at the source
     * (and, when verified, at the destination), the transfer action's id, how long the carry took, and why it failed
     * (then the job stayed at the source).
     */
    public record Carried(String checkpoint, long bytes, String sha256, String transferAction, long millis,
                          Optional<String> failure) {
    }

    public Move withTo(Placement target) {
        return new Move(at, kind, from, Optional.of(target), reason, step, carried);
    }

    public Move withCarried(Placement target, Carried c) {
        return new Move(at, kind, from, Optional.of(target), reason, step, Optional.of(c));
    }
}
