package dev.continuum.engine.auth;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/** With authentication on, the providers the engine serves accept only tokens meant for them. */
@QuarkusTest
@TestProfile(AuthOn.class)
class BuiltinProviderTokensTest {

    static final String RUN = "{\"request_id\":\"r-%s\",\"body\":{\"hello\":\"world\"}}";

    @Test
    void shouldAcceptATokenForTheBuiltinProviders() {
        given().header("Authorization", "Bearer " + Tokens.forProvider("scientist", "continuum-provider-builtin", "actions:builtin"))
                .contentType(ContentType.JSON).body(RUN.formatted(System.nanoTime()))
                .when().post("/providers/echo/run")
                .then().statusCode(202).body("status", equalTo("SUCCEEDED")).body("creator_id", equalTo("scientist"));
    }

    @Test
    void shouldRefuseACallWithoutAToken() {
        given().contentType(ContentType.JSON).body(RUN.formatted(System.nanoTime()))
                .when().post("/providers/echo/run")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseATokenReplayedFromAnotherProvider() {
        given().header("Authorization", "Bearer " + Tokens.forProvider("scientist", "continuum-provider-transfer", "actions:transfer"))
                .contentType(ContentType.JSON).body(RUN.formatted(System.nanoTime()))
                .when().post("/providers/echo/run")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseTheEnginesOwnApiTokenAtAProvider() {
        given().header("Authorization", "Bearer " + Tokens.of("scientist"))
                .contentType(ContentType.JSON).body(RUN.formatted(System.nanoTime()))
                .when().post("/providers/echo/run")
                .then().statusCode(401);
    }
}
