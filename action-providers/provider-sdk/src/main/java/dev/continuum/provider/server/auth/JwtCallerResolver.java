package dev.continuum.provider.server.auth;

import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.CallerResolver;
import io.vertx.ext.web.RoutingContext;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A provider's authentication: accepts only bearer tokens the identity provider issued for this
 * provider ({@link JwtVerifier}). Plug it in with {@code ProviderServerOptions.withCallerResolver}.
 *
 * <pre>{@code
 * options.withCallerResolver(JwtCallerResolver.keycloak("https://sso.example.org/realms/continuum",
 *         "continuum-provider-transfer", Optional.of("actions:transfer")));
 * }</pre>
 */
public final class JwtCallerResolver implements CallerResolver {

    private final JwtVerifier verifier;

    public JwtCallerResolver(JwtVerifier verifier) {
        this.verifier = verifier;
    }

    /** Keys fetched from the Keycloak realm now, and again (rate-limited) when an unknown key id appears. */
    public static JwtCallerResolver keycloak(String issuer, String audience, Optional<String> requiredScope) {
        var certs = Jwks.keycloakCerts(issuer);
        JwtVerifier verifier = new JwtVerifier(issuer, audience, requiredScope, () -> Jwks.fetch(certs), Clock.systemUTC(),
                Duration.ofSeconds(30));
        verifier.refreshKeys();
        return new JwtCallerResolver(verifier);
    }

    /**
     * Like {@link #keycloak} but fetches the keys with the first token, so the provider may start before
     * the identity provider does (as under {@code continuum up}).
     */
    public static JwtCallerResolver keycloakLazily(String issuer, String audience, Optional<String> requiredScope) {
        var certs = Jwks.keycloakCerts(issuer);
        return new JwtCallerResolver(new JwtVerifier(issuer, audience, requiredScope, () -> Jwks.fetch(certs),
                Clock.systemUTC(), Duration.ofSeconds(30)));
    }

    /**
     * A standalone provider's authentication from its environment: with {@code CONTINUUM_AUTH_ENABLED=true},
     * tokens from {@code CONTINUUM_AUTH_ISSUER} (default the local realm) for {@code CONTINUUM_PROVIDER_AUDIENCE}
     * (default {@code audience}) with {@code CONTINUUM_PROVIDER_SCOPE} (default {@code scope}); otherwise anyone
     * (with a warning on stderr).
     */
    public static CallerResolver fromEnvironment(Map<String, String> env, String audience, String scope) {
        if (!"true".equalsIgnoreCase(env.getOrDefault("CONTINUUM_AUTH_ENABLED", "false"))) {
            System.err.println("!!! provider authentication is off (CONTINUUM_AUTH_ENABLED is not true): anyone who can "
                    + "reach this port may call it. Use only on a laptop for development. !!!");
            return CallerResolver.anonymous();
        }
        return keycloakLazily(env.getOrDefault("CONTINUUM_AUTH_ISSUER", "http://127.0.0.1:8180/realms/continuum"),
                env.getOrDefault("CONTINUUM_PROVIDER_AUDIENCE", audience),
                Optional.of(env.getOrDefault("CONTINUUM_PROVIDER_SCOPE", scope)).filter(s -> !s.isBlank()));
    }

    @Override
    public Caller resolve(RoutingContext rc) {
        return resolveAuthorization(rc.request().getHeader("Authorization"));
    }

    /** Checking a token is CPU only (a signature) unless it names a key not yet fetched: then it may fetch the keys. */
    @Override
    public boolean neverBlocks(String authorization) {
        return !verifier.mayFetchKeys(authorization);
    }

    @Override
    public Caller resolveAuthorization(String authorization) {
        try {
            return verifier.verify(authorization);
        } catch (CallerRejectedException e) {
            throw e;
        } catch (RuntimeException e) {
            // Only fetching the issuer's keys fails this way: the caller should retry, not sign in again.
            throw new CallerRejectedException(503, "The identity provider cannot be reached to check the token; try again shortly.");
        }
    }
}
