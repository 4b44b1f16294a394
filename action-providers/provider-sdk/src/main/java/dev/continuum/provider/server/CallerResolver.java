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

    static CallerResolver anonymous() {
        return rc -> Caller.ANONYMOUS;
    }
}
