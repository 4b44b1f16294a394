package dev.continuum.provider.client;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-call extras: the bearer token sent as {@code Authorization: Bearer ...}, the URL the
 * provider should push the final status to ({@code X-Continuum-Callback}), and the trace context
 * headers of the caller's span ({@code traceparent}, {@code tracestate}: W3C Trace Context), sent as they are.
 */
public record CallContext(Optional<String> bearerToken, Optional<String> callbackUrl, Map<String, String> traceHeaders) {

    private static final CallContext ANONYMOUS = new CallContext(Optional.empty(), Optional.empty());

    public CallContext {
        Objects.requireNonNull(bearerToken, "bearerToken");
        Objects.requireNonNull(callbackUrl, "callbackUrl");
        traceHeaders = Map.copyOf(traceHeaders);
    }

    public CallContext(Optional<String> bearerToken, Optional<String> callbackUrl) {
        this(bearerToken, callbackUrl, Map.of());
    }

    public static CallContext anonymous() {
        return ANONYMOUS;
    }

    public static CallContext bearer(String token) {
        return new CallContext(Optional.of(token), Optional.empty());
    }

    public CallContext withCallback(String url) {
        return new CallContext(bearerToken, Optional.of(url), traceHeaders);
    }

    /** The same call inside the caller's trace: {@code headers} as a W3C propagator wrote them. */
    public CallContext withTraceHeaders(Map<String, String> headers) {
        return new CallContext(bearerToken, callbackUrl, headers);
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "CallContext[bearerToken=" + (bearerToken.isPresent() ? "***" : "none")
                + ", callbackUrl=" + callbackUrl.orElse("none") + ", traceHeaders=" + traceHeaders + "]";
    }
}
