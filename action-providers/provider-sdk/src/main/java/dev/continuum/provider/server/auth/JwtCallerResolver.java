package dev.continuum.provider.server.auth;

import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerResolver;
import io.vertx.ext.web.RoutingContext;

import java.time.Clock;
import java.time.Duration;
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

    @Override
    public Caller resolve(RoutingContext rc) {
        return verifier.verify(rc.request().getHeader("Authorization"));
    }
}
