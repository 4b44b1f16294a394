package dev.continuum.engine.ui;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** What the web UI stands on: its page and sign-in settings on the engine's origin, and the live run streams. */
@QuarkusTest
@TestProfile(AuthOn.class)
class LiveApiTest {

    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";

    @TestHTTPResource("/")
    URL base;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldServeThePageAndThePublicSignInSettingsWithoutAToken() {
        given().when().get("/").then().statusCode(200).contentType(ContentType.HTML)
                .body(containsString("<div id=\"app\">"), containsString("/static/bundle/"));
        given().when().get("/ui/config.json").then().statusCode(200)
                .body("auth_enabled", equalTo(true), "client_id", equalTo("continuum-web"),
                        "issuer", containsString("/realms/continuum"));
    }

    @Test
    void shouldPassOnlyTheWebClientsGrantsToTheIdentityProvider() {
        given().contentType(ContentType.URLENC).formParam("grant_type", "client_credentials")
                .formParam("client_id", "continuum-instrument").formParam("client_secret", "continuum-instrument-local-secret")
                .when().post("/ui/token").then().statusCode(400).body("error", equalTo("invalid_request"));
        given().contentType(ContentType.URLENC).formParam("client_id", "continuum-web")
                .when().post("/ui/token").then().statusCode(400).body("error", equalTo("invalid_request"));
        given().contentType(ContentType.URLENC).formParam("grant_type", "authorization_code")
                .formParam("client_id", "continuum-web").formParam("code", "made-up").formParam("code_verifier", "x")
                .formParam("redirect_uri", base.toString())
                .when().post("/ui/token").then().statusCode(400).body("error", equalTo("invalid_grant"));
    }

    @Test
    void shouldSayNoPlannerIsConfiguredWhenAskedWhereARunsJobsRan() {
        String token = Tokens.of("scientist");
        String flow = Tokens.as(token).body("{\"title\":\"unplaced\",\"definition\":" + WAIT + "}").when().post("/flows")
                .then().statusCode(201).extract().path("id");
        String run = Tokens.as(token).body("{\"body\":{}}").when().post("/flows/" + flow + "/run").then().statusCode(201)
                .extract().path("run_id");
        Tokens.as(token).when().get("/runs/" + run + "/placements").then().statusCode(200)
                .body("planner", equalTo("none")).body("detail", containsString("continuum.ui.planner-url"))
                .body("placements", org.hamcrest.Matchers.empty());
    }

    @Test
    void shouldRefuseTheLiveStreamWithoutAToken() {
        given().when().get("/live/runs").then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseAnUnknownFilterNamingIt() {
        given().header("Authorization", "Bearer " + Tokens.of("scientist")).when().get("/live/runs?filter_colour=red")
                .then().statusCode(400).body("errors[0].pointer", equalTo("/filter_colour"));
    }

    @Test
    void shouldSendTheFilteredPageAndSendItAgainWhenARunChanges() throws Exception {
        String token = Tokens.of("scientist");
        String label = "live-" + UUID.randomUUID();
        String flow = given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body("{\"title\":\"live\",\"definition\":" + WAIT + "}").when().post("/flows").then().statusCode(201)
                .extract().path("id");
        String run = given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body("{\"body\":{},\"label\":\"" + label + "\"}").when().post("/flows/" + flow + "/run").then()
                .statusCode(201).extract().path("run_id");

        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "live/runs?filter_label=" + label))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        try (BufferedReader events = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String first = nextData(events);
            assertThat(first).contains(run).contains("\"status\":\"ACTIVE\"");

            given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON).body("{}")
                    .when().post("/runs/" + run + "/cancel").then().statusCode(200);

            String second = nextData(events);
            assertThat(second).contains(run).contains("\"status\":\"ENDED\"");
        }
    }

    @Test
    void shouldHideTheLiveRunOfAnotherUser() {
        String flow = given().header("Authorization", "Bearer " + Tokens.of("scientist")).contentType(ContentType.JSON)
                .body("{\"title\":\"private\",\"definition\":" + WAIT + "}").when().post("/flows").then().statusCode(201)
                .extract().path("id");
        String run = given().header("Authorization", "Bearer " + Tokens.of("scientist")).contentType(ContentType.JSON)
                .body("{\"body\":{}}").when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");
        given().header("Authorization", "Bearer " + Tokens.of("scientist2")).when().get("/live/runs/" + run)
                .then().statusCode(404);
    }

    private static String nextData(BufferedReader events) throws Exception {
        String line;
        while ((line = events.readLine()) != null) {
            if (line.startsWith("data:")) {
                return line.substring(5);
            }
        }
        throw new AssertionError("the stream ended without an event");
    }
}
