package dev.continuum.engine.adapters.auth;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenRefusedException;
import dev.continuum.auth.oidc.TokenResponse;
import dev.continuum.engine.app.AccessDenied;
import dev.continuum.engine.app.OfflineAccess;
import dev.continuum.engine.domain.EngineError;
import jakarta.inject.Singleton;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * The consent that gives the engine offline access, and its revocation (ADR 0005): a signed-in person asks for it, signs in at the
 * identity provider with {@code scope=openid offline_access continuum-api}, and comes back with a code the engine
 * turns into an offline grant. The state carries the person who asked, where to come back and until when, sealed with
 * the vault key: any engine sharing the key (behind one load balancer) can finish a consent another began, a forged or
 * altered state does not open, and a code only becomes a grant of the person who started the consent.
 */
@Singleton
public final class Consents implements OfflineAccess {

    private static final Duration VALID_FOR = Duration.ofMinutes(10);

    private final TokenClient idp;
    private final ClientCredentials engine;
    private final OfflineGrants grants;
    private final Clock clock;
    private final ConsentState states;

    public Consents(AuthConfig auth, OfflineGrants grants, EngineVault vault, Clock clock) {
        this.idp = new TokenClient(auth.issuer());
        this.engine = ClientCredentials.confidential(auth.clientId(), auth.clientSecret().orElse(""));
        this.grants = grants;
        this.states = new ConsentState(vault.vault());
        this.clock = clock;
    }

    @Override
    public URI beginConsent(String person, String redirectUri) {
        String state = states.seal(new ConsentState.Asked(person, redirectUri, clock.instant().plus(VALID_FOR)));
        return idp.authorizationEndpoint(engine.clientId(), redirectUri, OfflineGrants.CONSENT_SCOPE, state);
    }

    @Override
    public UUID completeConsent(String state, String code) {
        ConsentState.Asked asked = states.open(state).orElse(null);
        if (asked == null || asked.until().isBefore(clock.instant())) {
            throw EngineError.invalidField("/state", "unknown or expired consent; start again with POST /grants/consent");
        }
        if (code == null || code.isBlank()) {
            throw EngineError.invalidField("/code", "the identity provider sent no code: the consent was refused or failed");
        }
        TokenResponse tokens;
        try {
            tokens = idp.authorizationCode(engine, code, asked.redirectUri());
        } catch (TokenRefusedException e) {
            throw EngineError.invalidField("/code", "the identity provider refused the code (" + e.error() + ")");
        }
        if (!JwtClaims.readUnverified(tokens.accessToken()).username().orElse("").equals(asked.person())) {
            throw new AccessDenied("The consent was given by someone other than " + asked.person()
                    + ", who started it; sign in at the identity provider as " + asked.person() + ".");
        }
        return grants.keep(tokens);
    }

    @Override
    public boolean revoke(UUID grantId, String person) {
        return grants.revoke(grantId, person);
    }
}
