package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.auth.vault.TokenVault;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-run, per-provider tokens obtained on a person's behalf (ADR 0005). At run start the person's
 * token is exchanged once per provider audience; only the sealed refresh token is kept, and access
 * tokens are renewed from it when the engine's clock says they are about to expire. When the
 * identity provider refuses renewal (grant revoked, signed out everywhere, session over), callers
 * get {@link SignInRequired}: the run should go INACTIVE until the person signs in and resumes it.
 *
 * <p>Blocking (JDK HTTP): call from a worker thread. Grants are held in memory in this landing;
 * a durable table is the next step (docs/auth.md, "Status").
 */
public final class DelegatedTokens {

    /** Which provider a token is for: its client id (audience) and the scope that lets it act. */
    public record Audience(String clientId, String scope) {}

    /** Raised instead of a token when only the person can restore the grant by signing in again. */
    public static final class SignInRequired extends RuntimeException {
        public SignInRequired(String detail) {
            super(detail, null, false, false);
        }
    }

    private record Grant(byte[] sealedRefresh, String accessToken, Instant accessExpiresAt) {
        @Override
        public String toString() {
            return "Grant[***, expires " + accessExpiresAt + "]";
        }
    }

    private final TokenClient idp;
    private final ClientCredentials engine;
    private final TokenVault vault;
    private final Clock clock;
    private final Duration renewBefore;
    private final Map<String, Grant> grants = new ConcurrentHashMap<>();

    public DelegatedTokens(TokenClient idp, ClientCredentials engine, TokenVault vault, Clock clock, Duration renewBefore) {
        this.idp = Objects.requireNonNull(idp);
        this.engine = Objects.requireNonNull(engine);
        this.vault = Objects.requireNonNull(vault);
        this.clock = Objects.requireNonNull(clock);
        this.renewBefore = Objects.requireNonNull(renewBefore);
    }

    /** Exchanges the person's token for one renewable grant per audience (run start, and resume after sign-in). */
    public void obtain(UUID runId, String userAccessToken, Iterable<Audience> audiences) {
        for (Audience audience : audiences) {
            TokenResponse exchanged;
            try {
                exchanged = idp.exchange(engine, userAccessToken, audience.clientId(), audience.scope(), true);
            } catch (TokenRefusedException e) {
                throw e.needsSignIn() ? new SignInRequired("Sign in again: the identity provider refused a token for "
                        + audience.clientId() + " (" + e.error() + ").") : e;
            }
            store(runId, audience, exchanged);
        }
    }

    /** A currently valid access token for the run's provider, renewed first when it expires within the margin. */
    public String tokenFor(UUID runId, Audience audience) {
        Grant grant = grants.get(key(runId, audience));
        if (grant == null) {
            throw new SignInRequired("No delegated grant for " + audience.clientId() + " in this run; sign in and resume it.");
        }
        if (grant.accessExpiresAt().minus(renewBefore).isAfter(clock.instant())) {
            return grant.accessToken();
        }
        String refresh = vault.open(grant.sealedRefresh(), context(runId, audience));
        try {
            return store(runId, audience, idp.refresh(engine, refresh, null)).accessToken();
        } catch (TokenRefusedException e) {
            if (e.needsSignIn()) {
                grants.remove(key(runId, audience));
                throw new SignInRequired("The grant for " + audience.clientId() + " was revoked or has expired ("
                        + e.error() + "); sign in again and resume the run.");
            }
            throw e;
        }
    }

    /** Forgets the run's grants (run finished or released); the identity provider's session ends on its own. */
    public void forget(UUID runId) {
        grants.keySet().removeIf(k -> k.startsWith(runId + "/"));
    }

    private Grant store(UUID runId, Audience audience, TokenResponse tokens) {
        String refresh = tokens.refreshToken().orElseThrow(() -> new IllegalStateException(
                "the identity provider issued no refresh token for " + audience.clientId()
                        + "; enable standard.token.exchange.enableRefreshRequestedTokenType on the engine client"));
        Instant expires = JwtClaims.readUnverified(tokens.accessToken()).expiresAt()
                .orElse(clock.instant().plus(tokens.expiresIn()));
        // The IdP's clock decides the token's real lifetime; the engine's clock decides when to renew it.
        Instant renewAt = clock.instant().plus(Duration.between(Instant.now(), expires).isNegative()
                ? Duration.ZERO : Duration.between(Instant.now(), expires));
        Grant grant = new Grant(vault.seal(refresh, context(runId, audience)), tokens.accessToken(), renewAt);
        grants.put(key(runId, audience), grant);
        return grant;
    }

    private static String key(UUID runId, Audience audience) {
        return runId + "/" + audience.clientId();
    }

    private static String context(UUID runId, Audience audience) {
        return "run:" + runId + "/aud:" + audience.clientId();
    }
}
