package dev.continuum.engine.app;

import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import io.smallrye.mutiny.Uni;

/** How the engine talks to action providers. Failures arrive as {@link ActionCallException}. */
public interface ActionGateway {

    Uni<ActionObservation> start(Effect.StartAction action, String callbackUrl);

    Uni<ActionObservation> poll(Effect.PollAction poll);

    Uni<Void> cancel(Effect.CancelAction cancel);

    Uni<Void> release(Effect.ReleaseAction release);

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
