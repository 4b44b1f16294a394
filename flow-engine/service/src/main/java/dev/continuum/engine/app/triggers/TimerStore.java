package dev.continuum.engine.app.triggers;

import dev.continuum.engine.domain.triggers.Trigger;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Where each timer trigger stands: its next tick, how often it fired, and a tick kept for later (overlap buffer_one). */
public interface TimerStore {

    record TimerState(Trigger trigger, Instant nextFireAt, int fires, Instant pendingFireAt) {}

    /** Sets the next tick (create, update, resume); null: the timer has no tick left. */
    Uni<Void> schedule(UUID triggerId, Instant next);

    /** Active timer triggers with a tick due by {@code now} or a buffered one. */
    Uni<List<TimerState>> due(Instant now);

    /**
     * Moves the timer on, if no other instance moved it first from {@code seenNext}; false when one did
     * (its fires are already under way: the dedup keys keep a tick from starting twice either way).
     */
    Uni<Boolean> advance(UUID triggerId, Instant seenNext, Instant next, int fires, Instant pending);

    /** Runs the trigger started from events received since {@code since}, newest first. */
    Uni<List<UUID>> recentRuns(UUID triggerId, int limit, Instant since);
}
