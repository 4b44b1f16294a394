package dev.continuum.provider.server;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where a provider keeps its actions, keyed by action id and by (creator, request_id). The
 * framework may call it from several threads at once, and always off the event loop, so an
 * implementation may block (a database) but must make {@link #insertIfAbsent} and
 * {@link #update} atomic.
 */
public interface ActionStore {

    /**
     * Stores {@code action} unless its creator already used its request_id; returns the action
     * that now holds that (creator, request_id) pair: {@code action} itself, or the earlier one.
     */
    StoredAction insertIfAbsent(StoredAction action);

    Optional<StoredAction> find(String actionId);

    Optional<StoredAction> findByRequest(String creatorId, String requestId);

    /**
     * Replaces the action with {@code change.apply(current)}, atomically with respect to other
     * updates of the same action. {@code change} must be free of side effects: it may run under a lock.
     * Returns the new value, or empty when no such action exists.
     */
    Optional<StoredAction> update(String actionId, UnaryOperator<StoredAction> change);

    /**
     * Forgets the action and frees its request_id; returns what was removed. (A release keeps the action, marked
     * {@link StoredAction#released()}, through {@link #update}; this comes when that retention is over.)
     */
    Optional<StoredAction> remove(String actionId);

    /** Actions not yet SUCCEEDED or FAILED (resumed when a provider is mounted). */
    List<StoredAction> unfinished();

    /**
     * Ids of finished actions whose {@code releaseAt} is at or before {@code now}: unreleased ones due for their
     * automatic release, and released ones whose request_id may now be freed.
     */
    List<String> releasable(Instant now);

    /** True when no method of this store blocks (memory only), so calls in process may use it on an event loop. */
    default boolean neverBlocks() {
        return false;
    }
}
