package dev.continuum.engine.api;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import dev.continuum.flow.model.FormAction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

/**
 * Human input: a run waits INACTIVE on a form defined by a JSON schema; its owner, managers and those the state names
 * in selectable_by may answer; an answer must satisfy the schema and is taken once; an unanswered form times out.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class HumanInputApiTest {

    static final String SCHEMA = "{\"type\":\"object\",\"required\":[\"approved\"],\"properties\":{"
            + "\"approved\":{\"type\":\"boolean\"},\"note\":{\"type\":\"string\",\"maxLength\":20}}}";

    static String scientist;
    static String scientist2;
    static String admin;

    @BeforeAll
    static void signIn() {
        scientist = Tokens.of("scientist");
        scientist2 = Tokens.of("scientist2");
        admin = Tokens.of("admin");
    }

    static String definition(String schema, int waitTime) {
        return "{\"StartAt\":\"Approve\",\"States\":{"
                + "\"Approve\":{\"Type\":\"Action\",\"ActionUrl\":\"" + FormAction.URL + "\",\"WaitTime\":" + waitTime + ","
                + "\"Parameters\":{\"title\":\"Approve the copy\",\"description.=\":\"'Copy ' + path + '?'\",\"schema\":" + schema + ","
                + "\"selectable_by\":[\"scientist2\"]},\"ResultPath\":\"$.approval\",\"Next\":\"Decide\","
                + "\"Catch\":[{\"ErrorEquals\":[\"ActionTimeout\"],\"ResultPath\":\"$.timeout\",\"Next\":\"Unanswered\"}]},"
                + "\"Decide\":{\"Type\":\"Choice\",\"Choices\":[{\"Variable\":\"$.approval.details.approved\",\"BooleanEquals\":true,"
                + "\"Next\":\"Copied\"}],\"Default\":\"Refused\"},"
                + "\"Copied\":{\"Type\":\"Pass\",\"End\":true},"
                + "\"Refused\":{\"Type\":\"Fail\",\"Error\":\"Refused\"},"
                + "\"Unanswered\":{\"Type\":\"Pass\",\"End\":true}}}";
    }

    static String start(int waitTime, String runRoles) {
        String flow = as(scientist).body("{\"title\":\"approval\",\"definition\":" + definition(SCHEMA, waitTime) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        return as(scientist).body("{\"body\":{\"path\":\"/data/x\"}" + runRoles + "}")
                .when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");
    }

    static void awaitStatus(String token, String run, String wanted) {
        Tokens.awaitStatus(token, run, wanted);
    }

    @Test
    void shouldRefuseAFlowWhoseFormSchemaIsBrokenNamingThePointer() {
        as(scientist).body("{\"title\":\"broken form\",\"definition\":" + definition("{\"type\":\"objekt\"}", 60) + "}")
                .when().post("/flows").then().statusCode(400).contentType("application/problem+json")
                .body("errors.pointer", hasItem("/definition/States/Approve/Parameters/schema/type"));
    }

    @Test
    void shouldWaitInactiveShowingTheFormThenTakeAValidAnswerFromANamedPersonOnce() {
        String run = start(3600, ",\"run_monitors\":[\"admin\"]");
        awaitStatus(scientist, run, "INACTIVE");

        as(admin).when().get("/runs/" + run).then().statusCode(200)
                .body("details.code", equalTo("FlowInactive"))
                .body("details.description", containsString("Waiting for input: Approve the copy"))
                .body("details.inputs[0].state_name", equalTo("Approve"))
                .body("details.inputs[0].description", equalTo("Copy /data/x?"))
                .body("details.inputs[0].schema.required", contains("approved"))
                .body("details.inputs[0].selectable_by", contains("scientist2"));
        as(scientist).when().get("/runs/" + run + "/inputs/Approve").then().statusCode(200)
                .body("title", equalTo("Approve the copy")).body("schema.properties.approved.type", equalTo("boolean"));
        as(scientist).when().get("/runs/" + run + "/inputs").then().statusCode(200)
                .body("inputs.state_name", contains("Approve"));

        // A run monitor sees the form but may not answer it; someone who may not see the run is told it does not exist.
        as(admin).when().get("/runs/" + run + "/inputs/Approve").then().statusCode(403).contentType("application/problem+json");
        as(admin).body("{\"approved\":true}").when().post("/runs/" + run + "/inputs/Approve").then().statusCode(403);
        as(scientist).when().get("/runs/" + run + "/inputs/Nope").then().statusCode(404);

        as(scientist2).body("{\"approved\":\"yes\",\"note\":\"this note is far too long\"}")
                .when().post("/runs/" + run + "/inputs/Approve").then().statusCode(400).contentType("application/problem+json")
                .body("errors.pointer", contains("/approved", "/note"));
        as(scientist2).body("{\"note\":\"ok\"}").when().post("/runs/" + run + "/inputs/Approve").then().statusCode(400)
                .body("errors.pointer", contains("/approved"));

        as(scientist2).body("{\"approved\":true,\"note\":\"go\"}").when().post("/runs/" + run + "/inputs/Approve")
                .then().statusCode(200);
        awaitStatus(scientist, run, "SUCCEEDED");
        as(scientist).when().get("/runs/" + run).then()
                .body("details.output.approval.details.approved", equalTo(true))
                .body("details.output.approval.display_status", equalTo("Submitted by scientist2"))
                .body("details.inputs", nullValue());

        as(scientist).body("{\"approved\":false}").when().post("/runs/" + run + "/inputs/Approve").then().statusCode(409)
                .contentType("application/problem+json");
        as(scientist).when().get("/runs/" + run + "/log").then()
                .body("entries.code", hasItem("FlowInactive")).body("entries.code", hasItem("ActionCompleted"));
    }

    @Test
    void shouldLetTheOwnerAnswerAndFollowTheAnswer() {
        String run = start(3600, "");
        awaitStatus(scientist, run, "INACTIVE");
        as(scientist2).when().get("/runs/" + run).then().statusCode(404); // named in the form, not a run role

        as(scientist).body("{\"approved\":false}").when().post("/runs/" + run + "/inputs/Approve").then().statusCode(200);

        awaitStatus(scientist, run, "FAILED");
        as(scientist).when().get("/runs/" + run).then().body("details.error", equalTo("Refused"));
    }

    @Test
    void shouldTimeOutAnUnansweredFormAfterItsWaitTimeIntoTheCatch() {
        String run = start(1, "");

        awaitStatus(scientist, run, "SUCCEEDED");
        as(scientist).when().get("/runs/" + run).then()
                .body("details.output.timeout.Error", equalTo("ActionTimeout"))
                .body("details.output.timeout.Cause", containsString("waiting (INACTIVE) after its WaitTime of 1 seconds"));
        as(scientist).body("{\"approved\":true}").when().post("/runs/" + run + "/inputs/Approve").then().statusCode(409);
    }
}
