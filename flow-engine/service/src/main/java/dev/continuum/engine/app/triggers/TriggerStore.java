package dev.continuum.engine.app.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import dev.continuum.engine.app.Slice;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Where triggers and their events are kept (PostgreSQL: adapters/persistence/PgTriggerStore). */
public interface TriggerStore {

    Uni<Void> insert(Trigger trigger);

    Uni<Optional<Trigger>> find(UUID id);

    /** Writes spec, paused and updated time. */
    Uni<Void> update(Trigger trigger);

    Uni<Void> delete(UUID id);

    /** The triggers the viewer owns, administers or views (all of them when unrestricted), newest first. */
    Uni<List<Trigger>> list(Viewer viewer, int limit);

    /**
     * Active triggers of one source type as committed now, whichever instance made them (for the sources that
     * subscribe on their own: an instrument's message right after a trigger was made elsewhere is that trigger's).
     */
    Uni<List<Trigger>> active(String sourceType);

    /**
     * As {@link #active}, but an answer up to a second old may be reused, so a trigger another instance made or paused
     * just now may be missing. Only for run chaining: every finished run asks, and {@link RunChains#catchUp} fires
     * for the runs such an answer missed.
     */
    Uni<List<Trigger>> activeRecently(String sourceType);

    /** The outcome of taking an event in: ours to handle, handled before, or being handled elsewhere now. */
    sealed interface Claim {
        record Owned(long eventId) implements Claim {}

        record Seen(EventOutcome.Duplicate duplicate) implements Claim {}

        record Busy() implements Claim {}
    }

    /**
     * Records the event under its dedup key (unique per trigger) unless it is known: a known event is recorded
     * again as a duplicate. A claim left by a crashed handler is taken over once {@code claimUntil} has passed.
     */
    Uni<Claim> claim(UUID triggerId, TriggerEvent event, UUID runId, Instant now, Instant claimUntil);

    /** Writes the event's outcome; a start resets the trigger's failure count, a rejection adds one. */
    Uni<Void> finish(UUID triggerId, long eventId, EventOutcome outcome);

    /** Drops a claim whose handling failed for a passing reason (database, identity provider), so a redelivery may retry. */
    Uni<Void> release(long eventId);

    record EventRecord(long id, String dedupKey, String outcome, UUID runId, String reason, JsonNode payload,
                       Instant receivedAt) {}

    /**
     * One page of the trigger's events, newest first: {@code limit} of them after the place {@code after} names (the
     * {@link Slice#after()} of the previous page; empty for the first page).
     */
    Uni<Slice<EventRecord>> events(UUID triggerId, List<String> after, int limit);

    /** A finished run a {@code run} trigger has no event for yet. */
    record UnchainedRun(UUID runId, UUID flowId, String status) {}

    /**
     * Runs completed in {@code [from, before)} with one of {@code statuses} (of {@code flowId} when not null) for
     * which the trigger has no event under the dedup key {@code run:<id>:<status>}, oldest first.
     */
    Uni<List<UnchainedRun>> unchained(UUID triggerId, List<String> statuses, UUID flowId, Instant from, Instant before, int limit);
}
