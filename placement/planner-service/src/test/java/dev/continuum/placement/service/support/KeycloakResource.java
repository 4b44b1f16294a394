package dev.continuum.placement.service.support;

import dev.continuum.auth.keycloak.KeycloakServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points the planner's token check at the JVM's one real Keycloak (started on first use, 20–45 s). */
public class KeycloakResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("continuum.auth.issuer", KeycloakServer.shared().issuer());
    }

    @Override
    public void stop() {
        // shared; stopped when the JVM exits
    }

    /** A token of a demo-realm user (local-only passwords), as the CLI gets one. */
    public static String token(String user) {
        return new dev.continuum.auth.oidc.TokenClient(KeycloakServer.shared().issuer())
                .password(dev.continuum.auth.oidc.ClientCredentials.publicClient("continuum-cli"), user,
                        user + "-local-only", "openid").accessToken();
    }
}
