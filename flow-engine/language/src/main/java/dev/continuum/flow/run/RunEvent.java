package dev.continuum.flow.run;

/** Something that happened to a run; the interpreter turns it into the run's next state. */
public sealed interface RunEvent {

    /** The provider answered POST /run. */
    record ActionStarted(String token, ActionObservation observation) implements RunEvent {
    }

    /** The provider answered GET status, or pushed a completion. */
    record ActionPolled(String token, ActionObservation observation) implements RunEvent {
    }

    /** The provider refused the action or could not be reached; {@code error} is e.g. ActionUnableToRun. */
    record ActionCallFailed(String token, String error, String cause) implements RunEvent {
    }

    /**
     * The engine holds no usable token for the action's provider (the person's grant was revoked or
     * has expired): the run waits INACTIVE with {@code reason} until someone signs in and resumes it.
     */
    record ConsentRequired(String token, String reason) implements RunEvent {
    }

    record TimerFired(String token) implements RunEvent {
    }

    record CancelRequested(String reason) implements RunEvent {
    }

    record ResumeRequested() implements RunEvent {
    }
}
