package dev.continuum.engine.auth;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Security by default: an engine started with no auth setting at all (not the test profile, which
 * turns auth off for tests that do not exercise it) refuses API calls without a token.
 */
@QuarkusTest
@TestProfile(AuthByDefaultTest.NothingConfigured.class)
class AuthByDefaultTest {

    public static class NothingConfigured implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "nothing-configured";
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.test-port", "0");
        }
    }

    @Test
    void shouldRefuseACallWithoutATokenWhenAuthIsNotConfigured() {
        given().when().get("/flows")
                .then().statusCode(401)
                .contentType("application/problem+json")
                .body("title", equalTo("Sign-in required"))
                .body("detail", containsString("http://127.0.0.1:8180/realms/continuum"));
    }
}
