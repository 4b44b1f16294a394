package dev.continuum.engine.app;

/** The caller may see the flow or run but not do this to it (HTTP 403). Callers who may not see it get 404 instead. */
public final class AccessDenied extends RuntimeException {

    public AccessDenied(String detail) {
        super(detail, null, false, false);
    }
}
