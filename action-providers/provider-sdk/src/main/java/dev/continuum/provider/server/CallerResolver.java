package dev.continuum.provider.server;

import io.vertx.ext.web.RoutingContext;

/**
 * Decides who is calling, once per request. This is the authentication seam: the default trusts
 * everyone as {@link Caller#ANONYMOUS}; a token-validating resolver (Keycloak) replaces it and
 * throws {@link CallerRejectedException} to refuse a request.
 */
@FunctionalInterface
public interface CallerResolver {

    Caller resolve(RoutingContext rc);

    /**
     * Decides who calls from an {@code Authorization} header value (null when none) without an HTTP
     * request: the same check for a provider called in process ({@link LocalProvider}). A resolver
     * that reads more of the request than that header refuses.
     */
    default Caller resolveAuthorization(String authorization) {
        throw new CallerRejectedException(401, "This provider checks callers only over HTTP.");
    }

    /** True when {@link #resolveAuthorization} never blocks (no key fetch), so it may run on an event loop. */
    default boolean neverBlocks() {
        return false;
    }

    /**
     * True when {@link #resolveAuthorization} of this header value (null when none) will not block: a token checker
     * whose keys are at hand answers true, one that would have to fetch the issuer's keys first answers false.
     */
    default boolean neverBlocks(String authorization) {
        return neverBlocks();
    }

    static CallerResolver anonymous() {
        return new CallerResolver() {
            @Override
            public boolean neverBlocks() {
                return true;
            }

            @Override
            public Caller resolve(RoutingContext rc) {
                return Caller.ANONYMOUS;
            }

            @Override
            public Caller resolveAuthorization(String authorization) {
                return Caller.ANONYMOUS;
            }
        };
    }
}
