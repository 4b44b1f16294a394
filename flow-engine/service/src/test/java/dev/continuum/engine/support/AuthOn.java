package dev.continuum.engine.support;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;
import java.util.Map;

/** Test profile: the engine as deployed — every API needs a bearer token from the test Keycloak. */
public class AuthOn implements QuarkusTestProfile {

    /** A provider URL the identity provider refuses to issue tokens for (no such client). */
    public static final String REFUSED_PROVIDER = "https://refused.example.org/";

    /** Test-only vault key: sealed grants must open again in another engine instance (and after a restart). */
    public static final String VAULT_KEY = "dGVzdC1vbmx5LXZhdWx0LWtleS0zMi1ieXRlcyEhISE=";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "continuum.auth.vault-key", VAULT_KEY,
                "continuum.auth.provider-audiences", REFUSED_PROVIDER + "=>continuum-provider-nope actions:builtin",
                // the realm's trigger service account (docs/triggers.md, "run_as")
                "continuum.auth.trigger-client-id", "continuum-triggers",
                "continuum.auth.trigger-client-secret", "continuum-triggers-local-secret");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(KeycloakResource.class));
    }
}
