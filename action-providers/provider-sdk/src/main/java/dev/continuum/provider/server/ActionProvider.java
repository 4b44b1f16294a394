package dev.continuum.provider.server;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;

/**
 * A new action provider is one class implementing this interface, mounted with
 * {@link ActionProviderServer#mount}. The framework does the protocol: ids, idempotency,
 * input-schema validation, status, cancel, release, log, push callbacks and errors.
 * {@code start} and {@code cancel} run on a worker thread, so they may block briefly.
 */
public interface ActionProvider {

    /** The introspection document; {@code input_schema} is enforced before {@link #start} is called. */
    ProviderDescription describe();

    /**
     * Starts one new action (never called again for a repeated request_id). Return
     * {@code ctx.succeeded(..)}/{@code ctx.failed(..)} when done at once, or {@code ctx.active(..)}
     * and finish later through {@code ctx.complete}/{@code ctx.fail}. Throw
     * {@link InvalidInputException} to reject the body with 400.
     */
    ActionStatus start(ActionRequest request, ActionContext ctx);

    /** Stops the work of a running action; the framework then marks it FAILED, "Cancelled". */
    default void cancel(ActionContext ctx) {}

    /**
     * Called at mount for every unfinished action found in a persistent store, so the provider can
     * re-arm timers or re-attach to external work. The in-memory store never has any.
     */
    default void resume(ActionContext ctx) {}

    /**
     * Called once when the provider is closed ({@link LocalProvider#close}, e.g. as its process stops): end the
     * background work of its actions — threads, pollers, subscriptions — without finishing any of them. Their stored
     * state stays as it is, for the restarted provider or another instance of a shared store to
     * {@link #resume}. From the moment of closing, {@link ActionContext#finished()} is true for every action and the
     * framework stores nothing an action's context is asked for ({@code complete}, {@code fail}, {@code progress},
     * {@code log}, {@code schedule}), so work still winding down cannot overwrite what its successor does.
     */
    default void stop() {}

    /**
     * True when {@link #start}, {@link #cancel} and {@link #resume} never block (no I/O, no waiting, bounded CPU): a
     * caller in this process ({@link LocalProvider}) then runs them on its own thread, an event loop included, rather
     * than hopping to a worker for each call. False unless the provider says so; its actions' store must not block
     * either ({@link ActionStore#neverBlocks}).
     */
    default boolean neverBlocks() {
        return false;
    }
}
