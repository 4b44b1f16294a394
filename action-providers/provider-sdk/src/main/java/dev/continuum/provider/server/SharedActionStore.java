package dev.continuum.provider.server;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * An {@link ActionStore} that several instances of one provider share (ADR 0027). Each unfinished
 * action is owned by one instance under a lease, renewed while that instance lives; the instance
 * that owns an action drives it (timers, waiting for external work). When an owner dies its lease
 * runs out and another instance adopts the action and {@link ActionProvider#resume resumes} it.
 * Status, cancel, release and log are answered by any instance: they read the shared store.
 */
public interface SharedActionStore extends ActionStore {

    /** This instance's name in the store; stable across restarts, so a restarted instance takes its actions back at once. */
    String instanceId();

    /** How long an owner's claim lasts without renewal. */
    Duration lease();

    /**
     * Takes the unfinished actions nobody holds any more (lease run out, or never leased) and, with
     * {@code includeOwn}, those still leased to this instance id (its previous life, at start-up);
     * returns the actions this call took over.
     */
    List<StoredAction> adopt(boolean includeOwn);

    /** Extends this instance's lease on the unfinished actions it owns; returns their ids. */
    Set<String> renew();
}
