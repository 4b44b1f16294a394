package dev.continuum.engine.app;

/**
 * Where committed run changes go: the run-event stream (adapters/messaging/RunEventStream, the SmallRye channel
 * {@code run-events}). Called only after the change is committed, so a consumer never sees a change that a crash
 * could still undo; a change committed just before a crash may never be published (docs/triggers.md#run-events).
 */
public interface RunChanges {

    /** Publishes one committed change; never blocks and never fails the caller (the run has moved on already). */
    void committed(RunChanged change);
}
