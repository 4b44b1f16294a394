package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/** Redrive: a FAILED run starts its next attempt in a chosen state, optionally with edited input, logged as such. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RunRedriveApiTest {

    /** Echoes its value, then fails unless the input says ok. */
    static String checkedFlow() {
        return """
                {"StartAt":"Echo","States":{
                  "Echo":{"Type":"Action","ActionUrl":"%s","Parameters":{"text.$":"$.value"},"ResultPath":"$.echoed","Next":"Check"},
                  "Check":{"Type":"Choice","Choices":[{"Variable":"$.ok","BooleanEquals":true,"Next":"Done"}],"Default":"Broken"},
                  "Broken":{"Type":"Fail","Error":"NotOk","Cause":"ok was not true"},
                  "Done":{"Type":"Pass","End":true}}}""".formatted(Flows.provider("echo"));
    }

    private static String failedRun() {
        String runId = Flows.start(Flows.publish(checkedFlow()), "{\"ok\":false,\"value\":\"first\"}");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "FAILED", "SUCCEEDED")).isEqualTo("FAILED");
        return runId;
    }

    private static io.restassured.response.ValidatableResponse redrive(String runId, String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/runs/" + runId + "/redrive").then();
    }

    private static JsonPath log(String runId) {
        return given().when().get("/runs/" + runId + "/log?limit=200").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void shouldRunTheChosenStateAgainWithEditedInputAndLogTheNewAttempt() {
        String runId = failedRun();

        redrive(runId, "{\"state\":\"Echo\",\"input\":{\"ok\":true,\"value\":\"second\"}}").statusCode(200)
                .body("run_id", equalTo(runId));

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.echoed.details.text", equalTo("second"))
                .body("completion_time", org.hamcrest.Matchers.notNullValue());
        JsonPath log = log(runId);
        List<String> codes = log.getList("entries.code");
        assertThat(codes).containsSubsequence("FlowStarted", "ActionStarted", "FlowFailed", "FlowRedriven", "ActionStarted",
                "FlowSucceeded");
        Map<String, Object> redriven = log.getMap("entries.find { it.code == 'FlowRedriven' }.details");
        assertThat(redriven).containsEntry("attempt", 2).containsEntry("state_name", "Echo").containsEntry("input_edited", true);
    }

    @Test
    void shouldStartWhereTheRunFailedWithItsInputThereWhenNothingIsChosen() {
        String runId = failedRun();

        redrive(runId, "{}").statusCode(200);

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "FAILED", "SUCCEEDED")).isEqualTo("FAILED");
        JsonPath log = log(runId);
        assertThat(log.getList("entries.code").stream().filter("FlowFailed"::equals)).hasSize(2);
        Map<String, Object> redriven = log.getMap("entries.find { it.code == 'FlowRedriven' }.details");
        assertThat(redriven).containsEntry("state_name", "Broken").containsEntry("input_edited", false);
        // a third attempt, from the check, with the input fixed
        redrive(runId, "{\"state\":\"Check\",\"input\":{\"ok\":true}}").statusCode(200);
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        assertThat(log(runId).getList("entries.findAll { it.code == 'FlowRedriven' }.details.attempt")).containsExactly(2, 3);
    }

    @Test
    void shouldRefuseAStateTheFlowLacksNamingTheField() {
        String runId = failedRun();

        redrive(runId, "{\"state\":\"Nowhere\"}").statusCode(400)
                .body("errors.pointer", hasItem("/state"))
                .body("detail", containsString("Nowhere"));
        redrive(runId, "{\"state\":\"Check\",\"input\":[1,2]}").statusCode(400)
                .body("errors.pointer", hasItem("/input"));
        Flows.run(runId).body("status", equalTo("FAILED"));
    }

    @Test
    void shouldRefuseToRedriveARunThatHasNotFailed() {
        String runId = Flows.start(Flows.publish(checkedFlow()), "{\"ok\":true,\"value\":\"fine\"}");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");

        redrive(runId, "{\"state\":\"Echo\"}").statusCode(409).body("detail", containsString("only FAILED runs"));
    }
}
