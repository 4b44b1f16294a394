package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.app.SealedGrants;
import dev.continuum.engine.app.SignInRequired;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import dev.continuum.engine.domain.ProviderAudiences.Audience;

/**
 * Per-run, per-provider tokens obtained on a person's behalf (ADR 0005). At run start the person's
 * token is exchanged once per provider audience; only the sealed refresh token is stored
 * ({@link SealedGrants}, the run_grants table), and access tokens are renewed from it when the
 * engine's clock says they are about to expire. Access tokens live in memory only, so another
 * instance, or this one after a restart, renews from the stored grant. When the identity provider
 * refuses renewal (grant revoked, signed out everywhere, session over), callers get
 * {@link SignInRequired}: the run goes INACTIVE until the person signs in and resumes it.
 *
 * <p>Blocking (JDK HTTP, JDBC): call from a worker thread.
 */
public final class DelegatedTokens {

    private record Fresh(String accessToken, Instant renewAt) {
        @Override
        public String toString() {
            return "Fresh[***, renew at " + renewAt + "]";
        }
    }

    private final TokenClient idp;
    private final ClientCredentials engine;
    private final TokenVault vault;
    private final SealedGrants grants;
    private final Clock clock;
    private final Duration renewBefore;
    private final Map<String, Fresh> fresh = new ConcurrentHashMap<>();

    public DelegatedTokens(TokenClient idp, ClientCredentials engine, TokenVault vault, SealedGrants grants, Clock clock,
                           Duration renewBefore) {
        this.idp = Objects.requireNonNull(idp);
        this.engine = Objects.requireNonNull(engine);
        this.vault = Objects.requireNonNull(vault);
        this.grants = Objects.requireNonNull(grants);
        this.clock = Objects.requireNonNull(clock);
        this.renewBefore = Objects.requireNonNull(renewBefore);
    }

    /**
     * Exchanges the person's token for one renewable grant per audience (run start, and resume after
     * sign-in). {@link TokenRefusedException} when the identity provider refuses for another reason.
     */
    public void obtain(UUID runId, String principal, String subjectToken, Iterable<Audience> audiences) {
        for (Audience audience : audiences) {
            TokenResponse exchanged;
            try {
                exchanged = idp.exchange(engine, subjectToken, audience.clientId(), audience.scope(), true);
            } catch (TokenRefusedException e) {
                throw e.needsSignIn() || subjectTokenDead(e) ? new SignInRequired("Sign in again: the identity provider "
                        + "no longer accepts your token (" + e.getMessage() + "), so it cannot act for you at "
                        + audience.clientId() + ".") : e;
            }
            store(runId, principal, audience, exchanged);
        }
    }

    /** Keycloak answers an exchange whose subject token's session was ended with invalid_request "Invalid token". */
    private static boolean subjectTokenDead(TokenRefusedException e) {
        return "invalid_request".equals(e.error()) && e.getMessage().endsWith("Invalid token");
    }

    /** The access token still fresh in this instance's memory, if any: no blocking call needed. */
    public Optional<String> cached(UUID runId, String principal, Audience audience) {
        Fresh known = fresh.get(key(runId, principal, audience));
        return known != null && known.renewAt().isAfter(clock.instant()) ? Optional.of(known.accessToken()) : Optional.empty();
    }

    /** A currently valid access token for the run's provider, renewed first when it expires within the margin. */
    public String tokenFor(UUID runId, String principal, Audience audience) {
        Optional<String> known = cached(runId, principal, audience);
        if (known.isPresent()) {
            return known.get();
        }
        byte[] sealed = grants.find(runId, principal, audience.clientId()).orElseThrow(() -> new SignInRequired(
                "Consent required: this run holds no grant for " + audience.clientId() + " on behalf of " + principal
                        + "; sign in again and resume the run."));
        String refresh;
        try {
            refresh = vault.open(sealed, context(runId, principal, audience));
        } catch (TokenVault.VaultException e) {
            // Another vault key (a restart without continuum.auth.vault-key) or a row copied from elsewhere.
            throw new SignInRequired("Consent required: the stored grant for " + audience.clientId()
                    + " cannot be opened with this engine's vault key; sign in again and resume the run.");
        }
        try {
            return store(runId, principal, audience, idp.refresh(engine, refresh, null));
        } catch (TokenRefusedException e) {
            if (e.needsSignIn()) {
                fresh.remove(key(runId, principal, audience));
                throw new SignInRequired("Consent required: the grant for " + audience.clientId() + " was revoked or has expired ("
                        + e.error() + "); sign in again and resume the run.");
            }
            throw e;
        }
    }

    /** Forgets the run's grants (run finished or released); the identity provider's session ends on its own. */
    public void forget(UUID runId) {
        fresh.keySet().removeIf(k -> k.startsWith(runId + "/"));
        grants.forget(runId);
    }

    private String store(UUID runId, String principal, Audience audience, TokenResponse tokens) {
        String refresh = tokens.refreshToken().orElseThrow(() -> new IllegalStateException(
                "the identity provider issued no refresh token for " + audience.clientId()
                        + "; enable standard.token.exchange.enableRefreshRequestedTokenType on the engine client"));
        grants.save(runId, principal, audience.clientId(), vault.seal(refresh, context(runId, principal, audience)));
        fresh.put(key(runId, principal, audience), new Fresh(tokens.accessToken(), renewAt(tokens)));
        return tokens.accessToken();
    }

    /**
     * The IdP's clock decides the token's real lifetime; the engine's clock decides when to renew it
     * (also for the flow service account's tokens, see {@link RunTokens}).
     */
    Instant renewAt(TokenResponse tokens) {
        Instant realNow = Instant.now();
        Instant expires = JwtClaims.readUnverified(tokens.accessToken()).expiresAt().orElse(realNow.plus(tokens.expiresIn()));
        Duration left = Duration.between(realNow, expires);
        return clock.instant().plus(left.isNegative() ? Duration.ZERO : left).minus(renewBefore);
    }

    private static String key(UUID runId, String principal, Audience audience) {
        return runId + "/" + principal + "/" + audience.clientId();
    }

    private static String context(UUID runId, String principal, Audience audience) {
        return "run:" + runId + "/as:" + principal + "/aud:" + audience.clientId();
    }
}
