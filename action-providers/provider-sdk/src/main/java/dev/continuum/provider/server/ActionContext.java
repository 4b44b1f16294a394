package dev.continuum.provider.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import java.time.Duration;
import java.util.Optional;

/**
 * What a provider may do with one action. Safe to use from any thread, also long after
 * {@link ActionProvider#start} returned. Once the action is finished (by the provider, or by a
 * cancel) further {@code complete}/{@code fail}/{@code progress} calls are ignored, so a late
 * timer cannot overwrite a cancellation.
 */
public interface ActionContext {

    String actionId();

    /** Who started the action. */
    Caller caller();

    ActionRequest request();

    /**
     * The W3C {@code traceparent} of the request that started this action — the provider's server span, a child
     * of the engine's call — to hand on to work done elsewhere (a task sent to a gateway carries it). Empty when
     * nothing traced the request, and for an action resumed after a restart.
     */
    default Optional<String> traceparent() {
        return Optional.empty();
    }

    /** The status as currently stored. */
    ActionStatus status();

    /** True once the action is SUCCEEDED or FAILED (including cancelled) or released. */
    boolean finished();

    /** A status to return from {@code start} when the action goes on in the background. */
    ActionStatus active(String displayStatus, JsonNode details);

    /** A status to return from {@code start} when the action is done already. */
    ActionStatus succeeded(JsonNode details);

    /** A status to return from {@code start} when the action failed at once. */
    ActionStatus failed(String displayStatus, JsonNode details);

    /** Finishes the action as SUCCEEDED with {@code details} as its result. */
    void complete(JsonNode details);

    /** Finishes the action as FAILED; {@code details} says why. */
    void fail(String displayStatus, JsonNode details);

    /** Updates a running action's display status and details. */
    void progress(String displayStatus, JsonNode details);

    /** Appends to the action's log ({@code GET /{action_id}/log}). */
    void log(String code, String description, JsonNode details);

    /**
     * Runs {@code task} once after {@code delay} on a worker thread (it may block). Scheduled
     * tasks of an action are cancelled when the action finishes. Timers live in memory: after a
     * restart they are gone unless {@link ActionProvider#resume} schedules them again.
     */
    Scheduled schedule(Duration delay, Runnable task);

    /** A pending {@link #schedule} task. */
    interface Scheduled {
        /** Returns false when the task already ran or was cancelled. */
        boolean cancel();
    }
}
