package dev.continuum.engine.auth;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/** Auth on, but the identity provider cannot be reached (e.g. Keycloak still starting): say so, never a bare 500. */
@QuarkusTest
@TestProfile(IdentityProviderDownTest.Unreachable.class)
class IdentityProviderDownTest {

    public static class Unreachable implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("continuum.auth.enabled", "true", "continuum.auth.issuer", "http://127.0.0.1:9/realms/continuum");
        }
    }

    @Test
    void shouldAnswerServiceUnavailableWithAProblemWhenTheTokenCannotBeChecked() {
        given().header("Authorization", "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln")
                .when().get("/flows")
                .then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", equalTo("5"))
                .body("title", equalTo("Identity provider unavailable"));
    }

    @Test
    void shouldStillAskForATokenWhenNoneIsSent() {
        given().when().get("/flows").then().statusCode(401).contentType("application/problem+json");
    }
}
