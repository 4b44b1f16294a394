package dev.continuum.engine.support;

import dev.continuum.auth.keycloak.KeycloakServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Turns API authentication on against the JVM's one real Keycloak (started on first use, 20–45 s). */
public class KeycloakResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        KeycloakServer keycloak = KeycloakServer.shared();
        return Map.of("continuum.auth.enabled", "true",
                "continuum.auth.issuer", keycloak.issuer(),
                "continuum.auth.client-secret", "continuum-engine-local-secret");
    }

    @Override
    public void stop() {
        // shared by every auth test class; stopped when the JVM exits
    }
}
