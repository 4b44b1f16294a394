package dev.continuum.auth.oidc;

import dev.continuum.auth.keycloak.KeycloakServer;

/** The shared test Keycloak and the demo realm's local-only identities. */
final class DemoRealm {

    static final ClientCredentials CLI = ClientCredentials.publicClient("continuum-cli");
    static final ClientCredentials ENGINE = ClientCredentials.confidential("continuum-engine", "continuum-engine-local-secret");
    static final ClientCredentials INSTRUMENT = ClientCredentials.confidential("continuum-instrument", "continuum-instrument-local-secret");

    private DemoRealm() {}

    static KeycloakServer keycloak() {
        return KeycloakServer.shared();
    }

    static TokenClient tokens() {
        return new TokenClient(keycloak().issuer());
    }

    static TokenResponse signIn(String user) {
        return tokens().password(CLI, user, user + "-local-only", "openid");
    }
}
