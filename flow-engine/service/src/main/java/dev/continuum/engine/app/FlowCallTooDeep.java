package dev.continuum.engine.app;

/**
 * A flow's action refused because its child run would lie more parent links deep than the limit allows: how a flow
 * that ends up calling itself stops (HTTP 409; in process, the parent's action fails with {@link #ERROR}).
 */
public final class FlowCallTooDeep extends RuntimeException {

    /** The error name a parent's Catch matches. */
    public static final String ERROR = "FlowDepthExceeded";

    public FlowCallTooDeep(String detail) {
        super(detail, null, false, false);
    }
}
