package dev.continuum.engine.auth;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * A flow's action endpoint ({@code /flows/{id}/actions/run}) starts a child run only for a caller who may start the
 * flow: someone who may only see it is refused with 403 and no run is made; someone who may start it gets a run they own.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class FlowActionsAccessApiTest {

    static String scientist;
    static String scientist2;

    @BeforeAll
    static void signIn() {
        scientist = Tokens.of("scientist");
        scientist2 = Tokens.of("scientist2");
    }

    static String publish(String roles) {
        return Tokens.publish(scientist, "child", "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}", roles);
    }

    @Test
    void shouldRefuseACallerWhoMayOnlySeeTheFlowAndStartNoRun() {
        String flow = publish(",\"flow_viewers\":[\"scientist2\"]");

        as(scientist2).body("{\"request_id\":\"r-1\",\"body\":{}}").when().post("/flows/" + flow + "/actions/run")
                .then().statusCode(403).contentType("application/problem+json")
                .body("detail", containsString("flow_starters"));
        as(scientist).when().get("/runs?filter_flow_id=" + flow).then().statusCode(200).body("runs", empty());
    }

    @Test
    void shouldStartTheChildRunAsTheCallerWhoMayStartTheFlow() {
        String flow = publish(",\"flow_starters\":[\"scientist2\"]");

        String action = as(scientist2).body("{\"request_id\":\"r-1\",\"body\":{}}").when().post("/flows/" + flow + "/actions/run")
                .then().statusCode(201).extract().path("action_id");
        Tokens.awaitStatus(scientist2, action, "SUCCEEDED");
        as(scientist2).when().get("/runs/" + action).then().statusCode(200).body("run_owner", equalTo("scientist2"));
        as(scientist2).when().get("/flows/" + flow + "/actions/" + action + "/status").then().statusCode(200)
                .body("status", equalTo("SUCCEEDED"));
        as(scientist).when().get("/runs?filter_flow_id=" + flow).then().statusCode(200).body("runs", hasSize(1));
    }

    @Test
    void shouldRunAChildFlowInProcessWithSignInOnAndLetItCallItsOwnProviderAsTheParentsOwner() {
        String child = as(scientist).body("{\"title\":\"child calling echo\",\"definition\":{\"StartAt\":\"Echo\",\"States\":{"
                        + "\"Echo\":{\"Type\":\"Action\",\"ActionUrl\":\"" + dev.continuum.engine.support.Flows.provider("echo")
                        + "\",\"Parameters\":{\"said.$\":\"$.word\"},\"ResultPath\":\"$.echoed\",\"End\":true}}}}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String childUrl = "http://127.0.0.1:" + io.restassured.RestAssured.port + "/flows/" + child + "/actions";
        String parent = as(scientist).body("{\"title\":\"parent\",\"definition\":{\"StartAt\":\"Call\",\"States\":{"
                        + "\"Call\":{\"Type\":\"Action\",\"ActionUrl\":\"" + childUrl + "\",\"Parameters\":{\"word.$\":\"$.word\"},"
                        + "\"ResultPath\":\"$.child\",\"End\":true}}}}")
                .when().post("/flows").then().statusCode(201).extract().path("id");

        String run = as(scientist).body("{\"body\":{\"word\":\"nested\"}}").when().post("/flows/" + parent + "/run")
                .then().statusCode(201).extract().path("run_id");

        Tokens.awaitStatus(scientist, run, "SUCCEEDED");
        String childRun = as(scientist).when().get("/runs/" + run).then().statusCode(200)
                .body("details.output.child.status", equalTo("SUCCEEDED")).extract().path("child_run_ids[0]");
        as(scientist).when().get("/runs/" + childRun).then().statusCode(200).body("run_owner", equalTo("scientist"))
                .body("parent_run_id", equalTo(run)).body("details.output.echoed.details.said", equalTo("nested"));
    }
}
