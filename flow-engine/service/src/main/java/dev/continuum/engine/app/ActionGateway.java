package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import io.smallrye.mutiny.Uni;

import java.util.UUID;
import java.util.function.Consumer;

/**
 * How the engine talks to action providers, on behalf of run {@code runId} (whose delegated token each
 * call carries). Failures arrive as {@link ActionCallException}, or {@link SignInRequired} when no token
 * can be had for the provider.
 */
public interface ActionGateway {

    /**
     * Starts an action. {@code fence} is asked right before each attempt is sent (the first and every retry); when it
     * answers false the call is not sent and the start fails with {@link LeaseLost}: the run was taken over while this
     * turn was slow, and its new holder makes the call.
     */
    Uni<ActionObservation> start(UUID runId, Effect.StartAction action, FinishReport report, Fence fence);

    /** Whether the caller still holds the run a call is made for. */
    @FunctionalInterface
    interface Fence {
        Fence NONE = () -> Uni.createFrom().item(true);

        Uni<Boolean> holds();
    }

    /** A start not sent because the turn that wanted it no longer holds its run's lease. */
    final class LeaseLost extends RuntimeException {
        public LeaseLost(UUID runId) {
            super("run " + runId + " is no longer leased to this instance; its action was not called");
        }
    }

    /**
     * Where a provider reports a finish that comes after its answer to run: a provider reached over
     * HTTP POSTs the action status to {@code callbackUrl}; one in this process hands it to {@code listener}.
     */
    record FinishReport(String callbackUrl, Consumer<JsonNode> listener) {}

    Uni<ActionObservation> poll(UUID runId, Effect.PollAction poll);

    /** Whether an action at this URL is run in this process, so its late finish comes to the FinishReport's listener. */
    default boolean inProcess(String actionUrl) {
        return false;
    }

    Uni<Void> cancel(UUID runId, Effect.CancelAction cancel);

    Uni<Void> release(UUID runId, Effect.ReleaseAction release);

    /** A provider refused the call or could not be reached even after retries. */
    final class ActionCallException extends RuntimeException {
        private final String error;

        public ActionCallException(String error, String cause) {
            super(cause);
            this.error = error;
        }

        /** The flow-level error name, e.g. ActionUnableToRun; what Catch matches on. */
        public String error() {
            return error;
        }
    }
}
