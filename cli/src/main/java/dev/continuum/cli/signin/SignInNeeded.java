package dev.continuum.cli.signin;

/** The command cannot go on without the person signing in (again); the message says how. */
public final class SignInNeeded extends RuntimeException {

    public SignInNeeded(String message) {
        super(message, null, false, false);
    }
}
