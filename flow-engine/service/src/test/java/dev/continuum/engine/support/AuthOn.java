package dev.continuum.engine.support;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;

/** Test profile: the engine as deployed — every API needs a bearer token from the test Keycloak. */
public class AuthOn implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(KeycloakResource.class));
    }
}
