package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** quarkus-oidc in front of every engine API, against the real Keycloak: who gets in, who is refused and how. */
@QuarkusTest
@TestProfile(AuthOn.class)
class BearerTokenApiTest {

    static final String FLOW = """
            {"title":"auth flow","definition":{"StartAt":"Hello","States":{"Hello":{"Type":"Pass","End":true}}}}""";

    static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    @Test
    void shouldRefuseARequestWithoutATokenWithAProblemBody() {
        given().when().get("/flows")
                .then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", containsString("Bearer"))
                .body("status", equalTo(401))
                .body("title", equalTo("Sign-in required"));
    }

    @Test
    void shouldLetTheSignedInScientistPublishAFlowAsHerself() {
        as(Tokens.of("scientist")).contentType(ContentType.JSON).body(FLOW)
                .when().post("/flows")
                .then().statusCode(201)
                .body("created_by", equalTo("scientist"));
    }

    @Test
    void shouldRefuseATamperedTokenWithAProblemBody() {
        String token = Tokens.of("scientist");
        String[] parts = token.split("\\.");
        String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"scientist\"", "\"admin\"");
        String forged = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "." + parts[2];

        as(forged).when().get("/flows")
                .then().statusCode(401).contentType("application/problem+json").body("status", equalTo(401));
    }

    @Test
    void shouldRefuseATokenFromAnotherIssuer() {
        as(Tokens.fromOtherIssuer("scientist")).when().get("/flows")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseATokenMeantForAProvider() {
        as(Tokens.forProvider("scientist", "continuum-provider-builtin", "actions:builtin")).when().get("/flows")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseAnExpiredToken() throws InterruptedException {
        new KeycloakAdmin(KeycloakServer.shared()).createClient("""
                {"clientId":"expiring-test","publicClient":true,"directAccessGrantsEnabled":true,"standardFlowEnabled":false,
                 "attributes":{"access.token.lifespan":"1"},"defaultClientScopes":["basic","profile","continuum-api"]}""");
        String token = Tokens.client().password(ClientCredentials.publicClient("expiring-test"), "scientist",
                "scientist-local-only", "openid").accessToken();
        Thread.sleep(2_500); // the period under test: the token's 1 s lifespan passes on Keycloak's and the engine's clock

        as(token).when().get("/flows")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseGarbageInTheAuthorizationHeader() {
        as("not-a-jwt").when().get("/runs")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldKeepProviderCallbacksReachableWithoutAToken() {
        given().contentType(ContentType.JSON).body("{\"status\":\"SUCCEEDED\"}")
                .when().post("/runs/" + java.util.UUID.randomUUID() + "/callbacks/abc")
                .then().statusCode(404);
    }

    @Test
    void shouldKeepHealthChecksOpenForProbes() {
        given().when().get("/q/health/live").then().statusCode(200);
    }
}
