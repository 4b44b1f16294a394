package dev.continuum.engine.support;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Tokens for the demo realm's local-only users, straight from the test Keycloak. */
public final class Tokens {

    public static final ClientCredentials CLI = ClientCredentials.publicClient("continuum-cli");
    public static final ClientCredentials ENGINE = ClientCredentials.confidential("continuum-engine", "continuum-engine-local-secret");

    private Tokens() {}

    /** A JSON request carrying the token, as the API's callers send one. */
    public static io.restassured.specification.RequestSpecification as(String token) {
        return io.restassured.RestAssured.given().header("Authorization", "Bearer " + token)
                .contentType(io.restassured.http.ContentType.JSON);
    }

    public static String of(String user) {
        return client().password(CLI, user, user + "-local-only", "openid").accessToken();
    }

    /** A token from a different realm of the same Keycloak: right user name, wrong issuer. */
    public static String fromOtherIssuer(String user) {
        return new TokenClient(KeycloakServer.shared().issuer("elsewhere"))
                .password(CLI, user, user + "-local-only", "openid").accessToken();
    }

    /** What the engine would hand the built-in providers: a token whose audience is not the engine. */
    public static String forProvider(String user, String audience, String scope) {
        return client().exchange(ENGINE, of(user), audience, scope, false).accessToken();
    }

    public static TokenClient client() {
        return new TokenClient(KeycloakServer.shared().issuer());
    }

    /** Publishes a flow as the holder of {@code token}; {@code moreFields} (e.g. {@code ,"flow_starters":[...]}) follow the definition. */
    public static String publish(String token, String title, String definitionJson, String moreFields) {
        return as(token).body("{\"title\":\"" + title + "\",\"definition\":" + definitionJson + moreFields + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    /** Polls GET /runs/{id} as the holder of {@code token} until the run is {@code wanted} (30 s at most). */
    public static String awaitStatus(String token, String runId, String wanted) {
        return awaitStatus(token, runId, wanted, Duration.ofSeconds(30));
    }

    /** Polls GET /runs/{id} as the holder of {@code token} until the run is {@code wanted}, {@code within} at most. */
    public static String awaitStatus(String token, String runId, String wanted, Duration within) {
        return await("run " + runId + " reaches " + wanted).atMost(within).pollInterval(Duration.ofMillis(100))
                .until(() -> as(token).when().get("/runs/" + runId).then().statusCode(200).extract().<String>path("status"),
                        equalTo(wanted));
    }
}
