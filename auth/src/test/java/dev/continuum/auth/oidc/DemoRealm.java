package dev.continuum.auth.oidc;

import dev.continuum.auth.keycloak.KeycloakServer;
import org.junit.jupiter.api.Assumptions;

/** The shared test Keycloak and the demo realm's local-only identities. */
final class DemoRealm {

    static final ClientCredentials CLI = ClientCredentials.publicClient("continuum-cli");
    static final ClientCredentials ENGINE = ClientCredentials.confidential("continuum-engine", "continuum-engine-local-secret");
    static final ClientCredentials INSTRUMENT = ClientCredentials.confidential("continuum-instrument", "continuum-instrument-local-secret");

    private DemoRealm() {}

    static KeycloakServer keycloak() {
        Assumptions.assumeTrue(KeycloakServer.distributionZip().isPresent(),
                "Keycloak " + KeycloakServer.VERSION + " zip is not in the local Maven repository");
        return KeycloakServer.shared();
    }

    static TokenClient tokens() {
        return new TokenClient(keycloak().issuer());
    }

    static TokenResponse signIn(String user) {
        return tokens().password(CLI, user, user + "-local-only", "openid");
    }
}
