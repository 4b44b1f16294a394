package dev.continuum.provider.client;

import java.util.Objects;
import java.util.Optional;

/**
 * Per-call extras: the bearer token sent as {@code Authorization: Bearer ...} and the URL the
 * provider should push the final status to ({@code X-Continuum-Callback}).
 */
public record CallContext(Optional<String> bearerToken, Optional<String> callbackUrl) {

    private static final CallContext ANONYMOUS = new CallContext(Optional.empty(), Optional.empty());

    public CallContext {
        Objects.requireNonNull(bearerToken, "bearerToken");
        Objects.requireNonNull(callbackUrl, "callbackUrl");
    }

    public static CallContext anonymous() {
        return ANONYMOUS;
    }

    public static CallContext bearer(String token) {
        return new CallContext(Optional.of(token), Optional.empty());
    }

    public CallContext withCallback(String url) {
        return new CallContext(bearerToken, Optional.of(url));
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "CallContext[bearerToken=" + (bearerToken.isPresent() ? "***" : "none")
                + ", callbackUrl=" + callbackUrl.orElse("none") + "]";
    }
}
