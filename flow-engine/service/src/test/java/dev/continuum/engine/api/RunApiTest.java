package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.TestClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RunApiTest {

    @Inject
    TestClock clock;

    static String fiveStepFlow() {
        return """
                {"StartAt":"Prepare","States":{
                  "Prepare":{"Type":"Pass","Parameters":{"message.$":"$.message"},"ResultPath":"$.prepared","Next":"Echo"},
                  "Echo":{"Type":"Action","ActionUrl":"%s","Parameters":{"text.$":"$.prepared.message"},"ResultPath":"$.echoed","Next":"Check"},
                  "Check":{"Type":"Choice","Choices":[{"Variable":"$.echoed.status","StringEquals":"SUCCEEDED","Next":"Nap"}],"Default":"Broken"},
                  "Nap":{"Type":"Action","ActionUrl":"%s","Parameters":{"seconds":0},"ResultPath":"$.napped","Next":"Done"},
                  "Done":{"Type":"Pass","End":true},
                  "Broken":{"Type":"Fail","Error":"EchoFailed","Cause":"echo did not succeed"}}}"""
                .formatted(Flows.provider("echo"), Flows.provider("sleep"));
    }

    @Test
    void shouldRunFiveStepFlowToSuccessWithActionResultsInOutput() {
        String flowId = Flows.publish(fiveStepFlow());
        String runId = Flows.start(flowId, "{\"message\":\"hello edge\"}");

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId)
                .body("details.output.echoed.details.text", equalTo("hello edge"))
                .body("details.output.napped.status", equalTo("SUCCEEDED"))
                .body("completion_time", notNullValue())
                .body("flow_version", equalTo(1));
        List<String> codes = given().when().get("/runs/" + runId + "/log?limit=100").then().statusCode(200)
                .extract().path("entries.code");
        assertThat(codes).startsWith("FlowStarted").endsWith("FlowSucceeded")
                .contains("ActionStarted", "ActionCompleted", "ChoiceCompleted", "PassCompleted");
    }

    @Test
    void shouldFailARunThatLoopsWithoutActionOrWaitWhileARunStartedBesideItSucceeds() {
        String loop = Flows.publish("""
                {"StartAt":"P","States":{
                  "P":{"Type":"Pass","Next":"C"},
                  "C":{"Type":"Choice","Choices":[{"Variable":"$.done","BooleanEquals":true,"Next":"Done"}],"Default":"P"},
                  "Done":{"Type":"Pass","End":true}}}""");

        String runaway = Flows.start(loop, "{\"done\":false}");
        String beside = Flows.start(Flows.publish(fiveStepFlow()), "{\"message\":\"beside a loop\"}");

        assertThat(Flows.awaitStatus(beside, Duration.ofSeconds(60), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        assertThat(Flows.awaitStatus(runaway, Duration.ofSeconds(120), "FAILED", "SUCCEEDED")).isEqualTo("FAILED");
        Flows.run(runaway)
                .body("details.error", equalTo("States.TransitionLimitExceeded"))
                .body("details.cause", containsString("over the limit of 25000 states entered per run"));
    }

    @Test
    void shouldRefuseInputThatBreaksTheFlowsSchemaNamingTheField() {
        String schema = """
                {"type":"object","required":["message"],"properties":{"message":{"type":"string"}}}""";
        String flowId = Flows.publish(fiveStepFlow(), schema);
        given().contentType(ContentType.JSON).body("{\"body\":{\"message\":42}}")
                .when().post("/flows/" + flowId + "/run")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].pointer", containsString("/body/message"));
    }

    @Test
    void shouldFinishAWeekLongWaitWhenTimeMovesOn() {
        String flowId = Flows.publish("""
                {"StartAt":"Week","States":{"Week":{"Type":"Wait","Seconds":604800,"Next":"After"},
                 "After":{"Type":"Pass","Result":"woke","ResultPath":"$.state","End":true}}}""");
        String runId = Flows.start(flowId, "{}");
        stillWaiting(runId, Duration.ofMillis(600));

        clock.advance(Duration.ofDays(7).plusSeconds(1));

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.state", equalTo("woke"));
    }

    @Test
    void shouldApplyAWaitsInputPathAndOutputPath() {
        String flowId = Flows.publish("""
                {"StartAt":"Hold","States":{"Hold":{"Type":"Wait","InputPath":"$.job","SecondsPath":"$.delay",
                 "OutputPath":"$.result","End":true}}}""");
        String runId = Flows.start(flowId, "{\"job\":{\"delay\":3600,\"result\":{\"ok\":true}},\"other\":1}");
        stillWaiting(runId, Duration.ofMillis(300));

        clock.advance(Duration.ofHours(1).plusSeconds(1));

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.ok", equalTo(true)).body("details.output.other", nullValue());
    }

    @Test
    void shouldCancelALongActionAndEndTheRun() {
        String flowId = Flows.publish("""
                {"StartAt":"Nap","States":{"Nap":{"Type":"Action","ActionUrl":"%s","Parameters":{"seconds":3600},"End":true}}}"""
                .formatted(Flows.provider("sleep")));
        String runId = Flows.start(flowId, "{}");
        Flows.awaitLogged(runId, "ActionStarted");
        given().contentType(ContentType.JSON).body("{\"reason\":\"wrong sample\"}")
                .when().post("/runs/" + runId + "/cancel").then().statusCode(200);
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(10), "ENDED")).isEqualTo("ENDED");
        List<String> codes = given().when().get("/runs/" + runId + "/log").then().extract().path("entries.code");
        assertThat(codes).contains("FlowCanceled");
        given().when().post("/runs/" + runId + "/cancel").then().statusCode(409);
    }

    @Test
    void shouldReleaseOnlyFinishedRuns() {
        String active = Flows.start(Flows.publish("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":100000,"End":true}}}"""), "{}");
        given().when().post("/runs/" + active + "/release").then().statusCode(409).contentType("application/problem+json");

        String done = Flows.start(Flows.publish(FlowApiTest.PASS_FLOW), "{}");
        Flows.awaitStatus(done, Duration.ofSeconds(10), "SUCCEEDED");
        given().when().post("/runs/" + done + "/release").then().statusCode(204);
        given().when().get("/runs/" + done).then().statusCode(404);
    }

    @Test
    void shouldFailRunNamingStateWhenProviderIsUnreachable() {
        String flowId = Flows.publish("""
                {"StartAt":"Call","States":{"Call":{"Type":"Action","ActionUrl":"http://127.0.0.1:9/nothing","Parameters":{},"End":true}}}""");
        String runId = Flows.start(flowId, "{}");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(30), "FAILED", "SUCCEEDED")).isEqualTo("FAILED");
        Flows.run(runId)
                .body("details.error", equalTo("ActionUnableToRun"))
                .body("details.state_name", equalTo("Call"))
                .body("details.cause", containsString("Action state 'Call'"))
                .body("details.cause", containsString("http://127.0.0.1:9/nothing"));
    }

    @Test
    void shouldCatchAnUnreachableProviderAndContinue() {
        String flowId = Flows.publish("""
                {"StartAt":"Call","States":{
                  "Call":{"Type":"Action","ActionUrl":"http://127.0.0.1:9/nothing","Parameters":{},"End":true,
                          "Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":"$.problem","Next":"Recover"}]},
                  "Recover":{"Type":"Pass","End":true}}}""");
        String runId = Flows.start(flowId, "{}");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(30), "FAILED", "SUCCEEDED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.problem.Error", equalTo("ActionUnableToRun"));
    }

    @Test
    void shouldKeepTheVersionARunStartedWith() {
        String flowId = Flows.publish("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":3600,"Next":"P"},
                 "P":{"Type":"Pass","Result":"v1","ResultPath":"$.v","End":true}}}""");
        String runId = Flows.start(flowId, "{}");
        given().contentType(ContentType.JSON).body("""
                {"definition":{"StartAt":"P","States":{"P":{"Type":"Pass","Result":"v2","ResultPath":"$.v","End":true}}}}""")
                .when().put("/flows/" + flowId).then().statusCode(200).body("version", equalTo(2));
        clock.advance(Duration.ofHours(2));
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");
        Flows.run(runId).body("flow_version", equalTo(1)).body("details.output.v", equalTo("v1"));
    }

    @Test
    void shouldFilterRunsByStatusAndTagAndRefuseUnknownStatus() {
        String runId = Flows.start(Flows.publish(FlowApiTest.PASS_FLOW), "{}");
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");
        given().when().get("/runs?status=SUCCEEDED&tag=test&limit=1000").then().statusCode(200)
                .body("runs.run_id", hasItem(runId));
        given().when().get("/runs?status=DONE").then().statusCode(400).body("errors[0].pointer", equalTo("/status"));
    }

    @Test
    void shouldRefuseOversizedInputWith413() {
        String flowId = Flows.publish(FlowApiTest.PASS_FLOW);
        String big = "x".repeat(1_100_000);
        given().contentType(ContentType.JSON).body("{\"body\":{\"blob\":\"" + big + "\"}}")
                .when().post("/flows/" + flowId + "/run")
                .then().statusCode(413).body("detail", containsString("by reference"))
                .body("detail", containsString("The run input is 1100011 bytes")) // {"blob":"…"}: its exact size, named
                .body("errors[0].pointer", equalTo("/body"));
    }

    /** The run stays ACTIVE for the whole period: its Wait does not end before the clock moves. */
    private static void stillWaiting(String runId, Duration period) {
        await("run " + runId + " stays ACTIVE in its Wait").during(period).atMost(period.plusSeconds(5))
                .pollInterval(Duration.ofMillis(50)).until(() -> Flows.run(runId).extract().<String>path("status"), equalTo("ACTIVE"));
    }
}
