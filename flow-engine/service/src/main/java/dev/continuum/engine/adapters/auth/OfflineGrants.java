package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.app.PersonGrants;
import dev.continuum.engine.app.PersonGrants.Grant;
import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.domain.ProviderAudiences.Audience;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Runs that act for a person through the offline grant the person gave the engine once (ADR 0005): for every
 * provider call the sealed offline token is refreshed to an access token for the engine, and that is exchanged
 * for a token meant for the provider alone. Nothing is cached, so a grant revoked at the engine or in the identity
 * provider stops the very next call. Offline sessions outlive sign-out and the SSO session maximum.
 *
 * <p>Blocking (JDK HTTP, JDBC): call from a worker thread.
 */
@Singleton
public final class OfflineGrants {

    /** What the person consents to: offline access, and the engine as the audience token exchange needs. */
    public static final String CONSENT_SCOPE = "openid offline_access continuum-api";

    private final TokenClient idp;
    private final ClientCredentials engine;
    private final TokenVault vault;
    private final PersonGrants grants;

    @Inject
    public OfflineGrants(AuthConfig auth, EngineVault vault, PersonGrants grants) {
        this(new TokenClient(auth.issuer()), ClientCredentials.confidential(auth.clientId(), auth.clientSecret().orElse("")),
                vault.vault(), grants);
    }

    public OfflineGrants(TokenClient idp, ClientCredentials engine, TokenVault vault, PersonGrants grants) {
        this.idp = Objects.requireNonNull(idp);
        this.engine = Objects.requireNonNull(engine);
        this.vault = Objects.requireNonNull(vault);
        this.grants = Objects.requireNonNull(grants);
    }

    /** Stores the offline token of a finished consent for the person its access token names; answers the grant's id. */
    public UUID keep(TokenResponse consented) {
        String person = JwtClaims.readUnverified(consented.accessToken()).username().orElseThrow(
                () -> new IllegalStateException("the identity provider's token names no preferred_username"));
        String offline = consented.refreshToken().filter(token -> consented.scope().contains("offline_access"))
                .orElseThrow(() -> new SignInRequired("The identity provider granted no offline access: allow the "
                        + "offline_access scope for the engine's client and consent again."));
        UUID id = UUID.randomUUID();
        grants.save(id, person, vault.seal(offline, context(id, person)));
        return id;
    }

    /** Ties the run to the person's current grant, if they gave one: the run then outlives their sessions. */
    public boolean link(UUID runId, String person) {
        Optional<Grant> current = grants.current(person);
        current.ifPresent(grant -> grants.link(runId, grant.id()));
        return current.isPresent();
    }

    /** A fresh token for the provider when the run acts through an offline grant; empty when it does not. */
    public Optional<String> tokenFor(UUID runId, Audience audience) {
        return grants.linkedTo(runId).map(grant -> tokenFor(grant, audience));
    }

    private String tokenFor(Grant grant, Audience audience) {
        if (grant.revoked()) {
            throw new SignInRequired("Access revoked by " + grant.revokedBy().orElseThrow() + " at "
                    + grant.revokedAt().map(Object::toString).orElse("?") + ": the run acted for " + grant.person()
                    + " through offline grant " + grant.id() + "; grant access again (POST /grants/consent) and resume the run.");
        }
        String offline;
        try {
            offline = vault.open(grant.sealed().orElseThrow(), context(grant.id(), grant.person()));
            if (vault.shouldSealAgain(grant.sealed().get())) {
                // sealed before a vault key rotation: sealed anew, so the previous key can be retired
                grants.reseal(grant.id(), vault.seal(offline, context(grant.id(), grant.person())));
            }
        } catch (TokenVault.VaultException e) {
            throw new SignInRequired("Consent required: offline grant " + grant.id() + " cannot be opened with this "
                    + "engine's vault key; grant access again (POST /grants/consent) and resume the run.");
        }
        try {
            String engineToken = idp.refresh(engine, offline, null).accessToken();
            return idp.exchange(engine, engineToken, audience.clientId(), audience.scope(), false).accessToken();
        } catch (TokenRefusedException e) {
            if (e.needsSignIn()) {
                throw new SignInRequired("Access revoked by the identity provider (" + e.error() + "): offline grant "
                        + grant.id() + " of " + grant.person() + " no longer works; grant access again (POST /grants/consent) "
                        + "and resume the run.");
            }
            throw e;
        }
    }

    /** Revokes the person's grant at the engine and, as far as it answers, at the identity provider. */
    public boolean revoke(UUID grantId, String person) {
        Optional<Grant> grant = grants.find(grantId).filter(found -> found.person().equals(person) && !found.revoked());
        if (grant.isEmpty() || !grants.revoke(grantId, person, person)) {
            return false;
        }
        try {
            idp.revoke(engine, vault.open(grant.get().sealed().orElseThrow(), context(grantId, person)));
        } catch (RuntimeException e) {
            // the engine no longer uses it either way; the offline session then ends at its idle timeout
        }
        return true;
    }

    private static String context(UUID grantId, String person) {
        return "grant:" + grantId + "/person:" + person;
    }
}
