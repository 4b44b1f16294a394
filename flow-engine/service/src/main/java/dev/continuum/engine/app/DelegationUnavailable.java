package dev.continuum.engine.app;

/** The identity provider could not be reached to obtain delegated tokens: retry shortly (503), nothing was started. */
public final class DelegationUnavailable extends RuntimeException {

    public DelegationUnavailable(String detail) {
        super(detail, null, false, false);
    }
}
