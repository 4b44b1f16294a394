package dev.continuum.engine.app;

/**
 * A flow's action refused before its child run exists, with the error name a parent's Catch matches (HTTP 409; in
 * process, the parent's action fails with {@link #error()}): the child would lie deeper than the limit allows, or its
 * flow is already running above it, which would close a cycle of flow calls.
 */
public final class FlowCallRefused extends RuntimeException {

    public static final String TOO_DEEP = "FlowDepthExceeded";
    public static final String CYCLE = "FlowCycleRefused";

    private final String error;

    public FlowCallRefused(String error, String detail) {
        super(detail, null, false, false);
        this.error = error;
    }

    public String error() {
        return error;
    }
}
