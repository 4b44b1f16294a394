package dev.continuum.engine.adapters.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Optional;

/**
 * Auth knobs (docs/auth.md). quarkus.oidc.* in application.properties is derived from these, so
 * connecting an existing Keycloak is one key: {@code continuum.auth.issuer}.
 */
@ConfigMapping(prefix = "continuum.auth")
public interface AuthConfig {

    /**
     * Every API call needs a bearer token. Off is a dev-only escape hatch: every request then acts
     * as {@code continuum.local-user} and the engine warns loudly at start.
     */
    @WithDefault("false")
    boolean enabled();

    /** The realm's issuer URL, e.g. {@code https://sso.example.org/realms/continuum}. */
    @WithDefault("http://127.0.0.1:8180/realms/continuum")
    String issuer();

    /** The engine's confidential client: the audience user tokens must carry, and the token-exchange requester. */
    @WithDefault("continuum-engine")
    String clientId();

    /** The engine client's secret (token exchange). */
    Optional<String> clientSecret();

    /** Base64 of 32 random bytes sealing stored refresh tokens (AES-256-GCM). Absent: a per-process key (dev only). */
    Optional<String> vaultKey();
}
