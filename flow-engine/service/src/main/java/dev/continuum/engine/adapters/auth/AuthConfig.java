package dev.continuum.engine.adapters.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
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
    @WithDefault("true")
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

    /**
     * The vault keys before a rotation (base64, comma-separated): they only open; the engine seals anew with
     * {@link #vaultKey()} as it renews grants and reads webhook secrets. Drop one once nothing sealed with it is left
     * (docs/operations.md, "Rotating the vault key").
     */
    Optional<List<String>> vaultPreviousKeys();

    /**
     * Which identity-provider client each provider is, by URL prefix of the resolved ActionUrl:
     * "https://provider.example.org/=>client-id scope". Built-ins, /providers/transfer and
     * /providers/inference need no entry (docs/auth.md, "Delegated tokens").
     */
    Optional<List<String>> providerAudiences();

    /** Delegated access tokens are renewed when less than this is left (judged by the engine's clock). */
    @WithDefault("60s")
    Duration renewBefore();

    /**
     * The client whose service account acts for Action states with {@code "RunAs": "Flow"} (client
     * credentials). Defaults to the engine's own client and secret.
     */
    Optional<String> flowClientId();

    Optional<String> flowClientSecret();

    /**
     * The confidential client (client credentials) whose service account starts the runs of triggers an administrator
     * bound to it ({@code "run_as": "service_account"}), so they keep working without their owner's session; the realm
     * the project ships has {@code continuum-triggers}. Unset: triggers act only as their owner.
     */
    Optional<String> triggerClientId();

    Optional<String> triggerClientSecret();
}
