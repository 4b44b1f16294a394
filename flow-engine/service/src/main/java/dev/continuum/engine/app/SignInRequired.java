package dev.continuum.engine.app;

/**
 * No token can be had for a provider call on the person's behalf (grant revoked, signed out
 * everywhere, session over, or never obtained): only the person can fix it by signing in again.
 * A run that meets it goes INACTIVE with this message as its reason; resume re-obtains the grant.
 */
public final class SignInRequired extends RuntimeException {

    public SignInRequired(String detail) {
        super(detail, null, false, false);
    }
}
