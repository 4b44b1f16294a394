package dev.continuum.engine.auth;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.in;
import static org.hamcrest.Matchers.not;

/** Flow and run roles through the API with real tokens: for each endpoint, one caller let in and one refused. */
@QuarkusTest
@TestProfile(AuthOn.class)
class RoleAccessApiTest {

    static final String PASS = "{\"StartAt\":\"Hello\",\"States\":{\"Hello\":{\"Type\":\"Pass\",\"End\":true}}}";
    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";

    static String scientist;
    static String scientist2;
    static String admin;

    @BeforeAll
    static void signIn() {
        scientist = Tokens.of("scientist");
        scientist2 = Tokens.of("scientist2");
        admin = Tokens.of("admin");
    }

    static String publish(String token, String definition, String roles) {
        return as(token).body("{\"title\":\"roles\",\"definition\":" + definition + (roles.isEmpty() ? "" : "," + roles) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    static String start(String token, String flowId) {
        return as(token).body("{\"body\":{}}").when().post("/flows/" + flowId + "/run")
                .then().statusCode(201).extract().path("run_id");
    }

    @Test
    void shouldPurgeOnlyTheCallersOwnFinishedRunsUnlessAnAdministratorPurges() {
        String mine = start(scientist, publish(scientist, PASS, ""));
        String theirs = start(scientist2, publish(scientist2, PASS, ""));
        Tokens.awaitStatus(scientist, mine, "SUCCEEDED");
        Tokens.awaitStatus(scientist2, theirs, "SUCCEEDED");
        String later = "{\"finished_before\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}";

        as(scientist2).body(later).when().post("/ops/retention/purge").then().statusCode(200)
                .body("scope", equalTo("runs owned by scientist2"));
        as(scientist2).when().get("/runs/" + theirs).then().statusCode(404);
        as(scientist).when().get("/runs/" + mine).then().statusCode(200);
        given().contentType(ContentType.JSON).body(later).when().post("/ops/retention/purge").then().statusCode(401);

        as(admin).body(later).when().post("/ops/retention/purge").then().statusCode(200).body("scope", equalTo("all runs"));
        as(scientist).when().get("/runs/" + mine).then().statusCode(404);
    }

    @Test
    void shouldHideAPrivateFlowFromAnotherScientistByIdAndInLists() {
        String flow = publish(scientist, PASS, "");

        as(scientist).when().get("/flows/" + flow).then().statusCode(200);
        as(scientist2).when().get("/flows/" + flow).then().statusCode(404);
        as(scientist2).when().get("/flows?limit=1000").then().statusCode(200).body("flows.id", not(hasItem(flow)));
        as(scientist).when().get("/flows?limit=1000").then().statusCode(200).body("flows.id", hasItem(flow));
    }

    @Test
    void shouldLetAViewerSeeButNotStartUpdateOrDelete() {
        String flow = publish(scientist, PASS, "\"flow_viewers\":[\"scientist2\"]");

        as(scientist2).when().get("/flows/" + flow).then().statusCode(200);
        as(scientist2).body("{\"body\":{}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(403).contentType("application/problem+json");
        as(scientist2).body("{\"title\":\"mine now\"}").when().put("/flows/" + flow).then().statusCode(403);
        as(scientist2).when().delete("/flows/" + flow).then().statusCode(403);
    }

    @Test
    void shouldLetEveryoneSeeAPublicFlow() {
        String flow = publish(scientist, PASS, "\"flow_viewers\":[\"public\"]");

        as(admin).when().get("/flows/" + flow).then().statusCode(200);
        as(scientist2).when().get("/flows?limit=1000").then().body("flows.id", hasItem(flow));
    }

    @Test
    void shouldLetAStarterStartAndOwnTheirRunWhileOthersCannotSeeIt() {
        String flow = publish(scientist, PASS, "\"flow_starters\":[\"scientist2\"]");

        String run = start(scientist2, flow);

        as(scientist2).when().get("/runs/" + run).then().statusCode(200).body("created_by", equalTo("scientist2"));
        as(scientist).when().get("/runs/" + run).then().statusCode(200);
        as(admin).when().get("/runs/" + run).then().statusCode(404);
        as(admin).when().get("/runs/" + run + "/log").then().statusCode(404);
        as(scientist2).when().get("/runs/" + run + "/log").then().statusCode(200);
        as(admin).when().get("/runs?limit=1000").then().body("runs.run_id", not(hasItem(run)));
        as(scientist2).when().get("/runs?limit=1000").then().body("runs.run_id", hasItem(run));
    }

    @Test
    void shouldLetTheAdministratorUpdateButOnlyTheOwnerDelete() {
        String flow = publish(scientist, PASS, "\"flow_administrators\":[\"admin\"]");

        as(admin).body("{\"title\":\"renamed\"}").when().put("/flows/" + flow).then().statusCode(200).body("version", equalTo(2));
        as(admin).when().delete("/flows/" + flow).then().statusCode(403);
        as(scientist).when().delete("/flows/" + flow).then().statusCode(204);
    }

    @Test
    void shouldLetAMonitorWatchButNotCancelWhileTheCreatorCancels() {
        String flow = publish(scientist, WAIT, "\"run_monitors\":[\"scientist2\"]");
        String run = start(scientist, flow);

        as(scientist2).when().get("/runs/" + run).then().statusCode(200);
        as(scientist2).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(403).contentType("application/problem+json");
        as(admin).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(404);
        as(scientist).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldLetOnlyAManagerReleaseOrResume() {
        String flow = publish(scientist, PASS, "\"run_managers\":[\"scientist2\"],\"run_monitors\":[\"admin\"]");
        String run = start(scientist, flow);
        awaitFinished(run);

        as(admin).when().post("/runs/" + run + "/resume").then().statusCode(403);
        as(scientist2).when().post("/runs/" + run + "/resume").then().statusCode(409);
        as(admin).when().post("/runs/" + run + "/release").then().statusCode(403);
        as(scientist2).when().post("/runs/" + run + "/release").then().statusCode(204);
    }

    @Test
    void shouldValidateOnlyForSignedInCallers() {
        as(scientist2).body("{\"definition\":" + PASS + "}").when().post("/flows/validate").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"definition\":" + PASS + "}").when().post("/flows/validate").then().statusCode(401);
    }

    static void awaitFinished(String run) {
        await("run " + run + " finishes").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> as(scientist).when().get("/runs/" + run).then().extract().<String>path("status"),
                        in(new String[] {"SUCCEEDED", "FAILED"}));
    }
}
