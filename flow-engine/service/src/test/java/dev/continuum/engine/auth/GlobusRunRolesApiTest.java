package dev.continuum.engine.auth;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/**
 * The Globus run API with real tokens: a run's own run_managers and run_monitors (set at start or with
 * PUT /runs/{id}), who may change a run, see its definition and log, and who finds it by role.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class GlobusRunRolesApiTest {

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

    static String publish(String roles) {
        return as(scientist).body("{\"title\":\"globus roles\",\"definition\":" + WAIT + (roles.isEmpty() ? "" : "," + roles) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    static String start(String flow, String runRoles) {
        return as(scientist).body("{\"body\":{}" + (runRoles.isEmpty() ? "" : "," + runRoles) + "}")
                .when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");
    }

    @Test
    void shouldLetTheOwnerAndRunManagersUpdateARunWhileMonitorsAreRefusedAndOthersToldItIsMissing() {
        String run = start(publish(""), "\"run_managers\":[\"scientist2\"],\"run_monitors\":[\"admin\"]");
        String privateRun = start(publish(""), "");

        as(admin).body("{\"label\":\"mine\"}").when().put("/runs/" + run).then().statusCode(403).contentType("application/problem+json");
        as(admin).body("{\"label\":\"mine\"}").when().put("/runs/" + privateRun).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"label\":\"anyone\"}").when().put("/runs/" + run).then().statusCode(401);
        as(scientist2).body("{\"label\":\"by manager\",\"run_monitors\":[]}").when().put("/runs/" + run).then().statusCode(200)
                .body("label", equalTo("by manager")).body("user_role", equalTo("run_manager"));
        as(scientist).body("{\"tags\":[\"by owner\"]}").when().put("/runs/" + run).then().statusCode(200)
                .body("tags", contains("by owner")).body("label", equalTo("by manager")).body("run_managers", contains("scientist2"));
        as(admin).when().get("/runs/" + run).then().statusCode(404);
    }

    @Test
    void shouldLetARunMonitorWatchTheRunItsLogAndDefinitionButNotSeeWhoElseMay() {
        String run = start(publish(""), "\"run_managers\":[\"scientist2\"],\"run_monitors\":[\"admin\"]");

        as(admin).when().get("/runs/" + run).then().statusCode(200).body("user_role", equalTo("run_monitor"))
                .body("run_managers", empty()).body("run_monitors", empty()).body("user_actions", empty());
        as(scientist2).when().get("/runs/" + run).then().statusCode(200).body("run_monitors", contains("admin"))
                .body("user_actions", contains("cancel"));
        as(admin).when().get("/runs/" + run + "/log").then().statusCode(200).body("entries.code", hasItem("FlowStarted"));
        as(admin).when().get("/runs/" + run + "/definition").then().statusCode(200).body("definition.StartAt", equalTo("Nap"));
        as(admin).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(403);
    }

    @Test
    void shouldShowTheRunsStartInputInFlowStartedToThoseWhoMaySeeTheRunAndNoOneElse() {
        String run = as(scientist).body("{\"body\":{\"sample\":\"S-17\"},\"run_monitors\":[\"admin\"]}")
                .when().post("/flows/" + publish("") + "/run").then().statusCode(201).extract().<String>path("run_id");

        as(admin).when().get("/runs/" + run + "/log").then().statusCode(200)
                .body("entries.find { it.code == 'FlowStarted' }.details.input.sample", equalTo("S-17"));
        as(scientist2).when().get("/runs/" + run + "/log").then().statusCode(404);
    }

    @Test
    void shouldLetTheOwnerAndRunManagersRedriveAFailedRunWhileMonitorsAreRefused() {
        String failing = as(scientist).body("{\"title\":\"fails\",\"definition\":{\"StartAt\":\"Boom\",\"States\":"
                        + "{\"Boom\":{\"Type\":\"Fail\",\"Error\":\"Boom\"}}}}")
                .when().post("/flows").then().statusCode(201).extract().<String>path("id");
        String run = start(failing, "\"run_managers\":[\"scientist2\"],\"run_monitors\":[\"admin\"]");

        as(admin).when().get("/runs/" + run).then().body("user_actions", empty());
        as(scientist2).when().get("/runs/" + run).then().body("user_actions", contains("redrive", "release"));
        as(admin).body("{}").when().post("/runs/" + run + "/redrive").then().statusCode(403);
        given().contentType(ContentType.JSON).body("{}").when().post("/runs/" + run + "/redrive").then().statusCode(401);
        as(scientist2).body("{}").when().post("/runs/" + run + "/redrive").then().statusCode(200).body("status", equalTo("FAILED"));
        as(scientist).body("{\"state\":\"Boom\"}").when().post("/runs/" + run + "/redrive").then().statusCode(200);
        as(scientist).when().get("/runs/" + run + "/log").then()
                .body("entries.findAll { it.code == 'FlowRedriven' }.details.attempt", contains(2, 3));
    }

    @Test
    void shouldLetOnlyAnOwnerHandTheFlowToANewFlowOwnerAsGlobusUpdateFlowDoes() {
        String flow = publish("\"flow_administrators\":[\"scientist2\"]");

        as(scientist2).body("{\"flow_owner\":\"scientist2\"}").when().put("/flows/" + flow).then().statusCode(403);
        as(scientist).body("{\"flow_owner\":\"  \"}").when().put("/flows/" + flow).then().statusCode(400)
                .body("errors.pointer", hasItem("/flow_owner"));
        as(scientist).body("{\"flow_owner\":\"scientist2\"}").when().put("/flows/" + flow).then().statusCode(200)
                .body("flow_owner", equalTo("scientist2"));

        as(scientist2).when().get("/flows/" + flow).then().statusCode(200).body("user_role", equalTo("flow_owner"));
        as(scientist).when().get("/flows/" + flow).then().statusCode(404);
        as(scientist).body("{\"title\":\"x\",\"flow_owner\":\"scientist\",\"definition\":" + WAIT + "}").when().post("/flows")
                .then().statusCode(400).body("errors.pointer", hasItem("/flow_owner"));
    }

    @Test
    void shouldShowTheRunDefinitionToNobodyWhoCannotSeeTheRun() {
        String run = start(publish(""), "");

        as(scientist).when().get("/runs/" + run + "/definition").then().statusCode(200);
        as(scientist2).when().get("/runs/" + run + "/definition").then().statusCode(404).contentType("application/problem+json");
        given().when().get("/runs/" + run + "/definition").then().statusCode(401);
    }

    @Test
    void shouldFindRunsByTheRoleTheCallerHoldsOnThem() {
        String flow = publish("\"run_monitors\":[\"scientist2\"]");
        String monitored = start(flow, "\"run_monitors\":[\"admin\"]");

        as(admin).when().get("/runs?filter_flow_id=" + flow).then().statusCode(200).body("runs.run_id", contains(monitored));
        as(admin).when().get("/runs?filter_roles=run_monitors&filter_flow_id=" + flow).then().body("runs.run_id", contains(monitored));
        as(admin).when().get("/runs?filter_roles=run_owner,run_managers&filter_flow_id=" + flow).then().body("runs", empty());
        as(scientist2).when().get("/runs?filter_roles=flow_run_monitors&filter_flow_id=" + flow).then().body("runs.run_id", contains(monitored));
        as(scientist2).when().get("/runs?filter_role=run_manager&filter_flow_id=" + flow).then().body("runs", empty());
        as(scientist).when().get("/runs?filter_role=run_owner&filter_flow_id=" + flow).then().body("runs.run_id", contains(monitored));
    }

    @Test
    void shouldShowFlowRoleListsOnlyToAdministratorsAndFilterFlowsByRole() {
        String flow = publish("\"flow_viewers\":[\"scientist2\"],\"flow_administrators\":[\"admin\"],\"run_managers\":[\"scientist2\"]");

        as(scientist2).when().get("/flows/" + flow).then().statusCode(200).body("user_role", equalTo("flow_viewer"))
                .body("user_roles", contains("flow_viewer", "flow_run_manager"))
                .body("flow_viewers", empty()).body("flow_administrators", empty()).body("flow_owner", equalTo("scientist"));
        as(admin).when().get("/flows/" + flow).then().body("user_role", equalTo("flow_administrator"))
                .body("flow_viewers", contains("scientist2")).body("run_managers", contains("scientist2"));
        as(scientist2).when().get("/flows?filter_roles=flow_viewers").then().body("flows.id", hasItem(flow));
        as(scientist2).when().get("/flows?filter_roles=run_managers").then().body("flows.id", hasItem(flow));
        as(scientist2).when().get("/flows?filter_role=flow_starter").then().body("flows.id", not(hasItem(flow)));
        as(admin).when().get("/flows?filter_role=flow_administrator").then().body("flows.id", hasItem(flow));
    }
}
