package dev.continuum.engine.adapters.auth;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.config.EngineConfig;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The caller named by the verified bearer token ({@code preferred_username}; quarkus-oidc has
 * already checked issuer, signature, expiry and audience). With auth off, the configured local user.
 */
@ApplicationScoped
public class TokenCaller implements CurrentCaller {

    /** The realm role of Continuum's administrators (auth/.../continuum-realm.json). */
    static final String ADMINISTRATOR_ROLE = "continuum-admin";

    private final AuthConfig auth;
    private final String localUser;

    @Inject
    SecurityIdentity identity;

    public TokenCaller(AuthConfig auth, EngineConfig engine) {
        this.auth = auth;
        this.localUser = engine.localUser();
    }

    @Override
    public String userId() {
        if (!auth.enabled()) {
            return localUser;
        }
        if (identity.isAnonymous()) {
            // AuthGate refuses anonymous requests before any resource runs; reaching here is a wiring bug.
            throw new IllegalStateException("no authenticated caller on a protected request");
        }
        return identity.getPrincipal().getName();
    }

    @Override
    public java.util.Optional<String> accessToken() {
        if (!auth.enabled() || identity.isAnonymous()) {
            return java.util.Optional.empty();
        }
        var credential = identity.getCredential(io.quarkus.oidc.AccessTokenCredential.class);
        return credential == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(credential.getToken());
    }

    /** The token's verified {@code email} claim when it has one; otherwise as CurrentCaller says. */
    @Override
    public java.util.Optional<String> email() {
        if (auth.enabled() && !identity.isAnonymous()
                && identity.getPrincipal() instanceof org.eclipse.microprofile.jwt.JsonWebToken jwt
                && jwt.getClaim("email") instanceof Object claim && !claim.toString().isBlank()) {
            return java.util.Optional.of(claim.toString().replace("\"", ""));
        }
        return CurrentCaller.super.email();
    }

    @Override
    public boolean administrator() {
        return !auth.enabled() || !identity.isAnonymous() && identity.hasRole(ADMINISTRATOR_ROLE);
    }

    @Override
    public Viewer viewer() {
        return auth.enabled() ? Viewer.of(userId()) : Viewer.unrestricted(localUser);
    }
}
