package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Flows run flows: an Action state names another flow's action URL ({engine}/flows/{id}/actions), the child is a real
 * run linked to its parent, its output or its failure comes back to the parent's action, cancelling the parent
 * cancels it, and a chain of flow calls stops at the depth limit with a named error.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class FlowsRunFlowsApiTest {

    static final String DOUBLER = "{\"StartAt\":\"Double\",\"States\":{\"Double\":{\"Type\":\"ExpressionEval\","
            + "\"Parameters\":{\"doubled.=\":\"n * 2\"},\"ResultPath\":\"$.result\",\"End\":true}}}";

    static String actionUrl(String flowId) {
        return "http://127.0.0.1:" + RestAssured.port + "/flows/" + flowId + "/actions";
    }

    /** A parent whose one Action calls {@code childUrl}; a failure is caught into $.caught. */
    static String parentCalling(String childUrl) {
        return "{\"StartAt\":\"Call\",\"States\":{\"Call\":{\"Type\":\"Action\",\"ActionUrl\":\"" + childUrl + "\","
                + "\"Parameters\":{\"n.$\":\"$.n\"},\"ResultPath\":\"$.child\",\"Next\":\"Done\","
                + "\"Catch\":[{\"ErrorEquals\":[\"States.ALL\"],\"ResultPath\":\"$.caught\",\"Next\":\"Caught\"}]},"
                + "\"Caught\":{\"Type\":\"Pass\",\"End\":true},\"Done\":{\"Type\":\"Pass\",\"End\":true}}}";
    }

    @Test
    void shouldRunTheChildFlowAsALinkedRunAndHandItsOutputToTheParent() {
        String child = Flows.publish(DOUBLER);
        String parent = Flows.publish(parentCalling(actionUrl(child)));
        String run = Flows.start(parent, "{\"n\":21}");

        Flows.awaitStatus(run, Duration.ofSeconds(30), "SUCCEEDED", "FAILED");
        Flows.run(run).body("status", equalTo("SUCCEEDED"))
                .body("details.output.child.status", equalTo("SUCCEEDED"))
                .body("details.output.child.details.result.doubled", equalTo(42));
        List<String> children = Flows.run(run).extract().path("child_run_ids");
        assertEquals(1, children.size());
        Flows.run(children.get(0)).body("flow_id", equalTo(child)).body("status", equalTo("SUCCEEDED"))
                .body("parent_run_id", equalTo(run)).body("parent_state", equalTo("Call"))
                .body("details.output.result.doubled", equalTo(42));
        Flows.run(run).body("details.output.child.action_id", equalTo(children.get(0)));
    }

    @Test
    void shouldHandTheChildsFailureToTheParentsCatchWithItsErrorAndCause() {
        String child = Flows.publish("{\"StartAt\":\"Boom\",\"States\":{\"Boom\":{\"Type\":\"Fail\","
                + "\"Error\":\"CalibrationMissing\",\"Cause\":\"no calibration for detector 7\"}}}");
        String run = Flows.start(Flows.publish(parentCalling(actionUrl(child))), "{\"n\":1}");

        Flows.awaitStatus(run, Duration.ofSeconds(30), "SUCCEEDED", "FAILED");
        Flows.run(run).body("status", equalTo("SUCCEEDED"))
                .body("details.output.caught.Error", equalTo("ActionFailedException"))
                .body("details.output.caught.Cause", containsString("CalibrationMissing"))
                .body("details.output.caught.Cause", containsString("no calibration for detector 7"));
    }

    @Test
    void shouldCancelTheRunningChildWhenTheParentIsCancelled() {
        String child = Flows.publish("{\"StartAt\":\"Soak\",\"States\":{\"Soak\":{\"Type\":\"Wait\",\"Seconds\":600,\"End\":true}}}");
        String run = Flows.start(Flows.publish(parentCalling(actionUrl(child))), "{\"n\":1}");
        String childRun = awaitChild(run);
        Flows.awaitStatus(childRun, Duration.ofSeconds(10), "ACTIVE");

        given().contentType(ContentType.JSON).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);

        Flows.awaitStatus(run, Duration.ofSeconds(30), "ENDED");
        Flows.awaitStatus(childRun, Duration.ofSeconds(30), "ENDED");
    }

    /** Calls the flow at {@code url} with the run's input, without a Catch: a failure fails the caller too. */
    static String calling(String url) {
        return "{\"StartAt\":\"Again\",\"States\":{\"Again\":{\"Type\":\"Action\",\"ActionUrl\":\""
                + url + "\",\"Parameters\":{\"n.$\":\"$.n\"},\"End\":true}}}";
    }

    @Test
    void shouldStopAChainOfFlowCallsAtTheDepthLimitWithANamedError() {
        // ten distinct flows, each calling the next: the chain is no cycle, only too deep
        String next = Flows.publish(DOUBLER);
        for (int i = 0; i < 9; i++) {
            next = Flows.publish(calling(actionUrl(next)));
        }
        String top = Flows.start(next, "{\"n\":1}");

        Flows.awaitStatus(top, Duration.ofSeconds(90), "SUCCEEDED", "FAILED");
        String deepest = top;
        int depth = 0;
        for (List<String> below = children(top); !below.isEmpty(); below = children(deepest)) {
            assertEquals(1, below.size());
            deepest = below.get(0);
            depth++;
        }
        assertEquals(8, depth, "runs below the top one");
        Flows.awaitStatus(deepest, Duration.ofSeconds(10), "FAILED");
        Flows.run(deepest).body("details.error", equalTo("FlowDepthExceeded"))
                .body("details.cause", containsString("limit of 8"));
        Flows.run(top).body("status", equalTo("FAILED"));
    }

    @Test
    void shouldRefuseAFlowCallThatClosesACycleWithANamedErrorAndStartNoRunForIt() {
        String first = Flows.publish(DOUBLER);
        String second = Flows.publish(calling(actionUrl(first)));
        // first calls second, which calls first again
        given().contentType(ContentType.JSON).body("{\"title\":\"first\",\"definition\":" + calling(actionUrl(second)) + "}")
                .when().put("/flows/" + first).then().statusCode(200);
        String top = Flows.start(first, "{\"n\":1}");

        Flows.awaitStatus(top, Duration.ofSeconds(30), "SUCCEEDED", "FAILED");
        List<String> below = children(top);
        assertEquals(1, below.size());
        String middle = below.get(0);
        Flows.run(middle).body("flow_id", equalTo(second)).body("status", equalTo("FAILED"))
                .body("details.error", equalTo("FlowCycleRefused"))
                .body("details.cause", containsString("Flow " + first + " is already running above this call"))
                .body("child_run_ids", org.hamcrest.Matchers.empty());
        Flows.run(top).body("status", equalTo("FAILED")).body("details.cause", containsString("FlowCycleRefused"));
    }

    @Test
    void shouldAnswerTheSameChildRunForARepeatedRequestIdOverHttp() {
        String child = Flows.publish(DOUBLER);
        String first = startAction(child, "req-1", 4);
        String again = startAction(child, "req-1", 4);
        String other = startAction(child, "req-2", 5);

        assertEquals(first, again);
        assertNotEquals(first, other);
        Flows.awaitStatus(first, Duration.ofSeconds(30), "SUCCEEDED");
        given().when().get("/flows/" + child + "/actions/" + first + "/status").then().statusCode(200)
                .body("action_id", equalTo(first)).body("status", equalTo("SUCCEEDED"))
                .body("details.result.doubled", equalTo(8));
        given().when().get("/runs?filter_flow_id=" + child).then().statusCode(200);
        given().when().get("/flows/" + child + "/actions").then().statusCode(200)
                .body("title", equalTo("test flow")).body("types[0]", equalTo("Action"));
    }

    @Test
    void shouldLinkAChildToTheParentRunOfAnotherEngineThatTheCallNames() {
        String child = Flows.publish(DOUBLER);
        String remoteParent = java.util.UUID.randomUUID().toString();
        String localRun = Flows.start(child, "{\"n\":1}");

        String linked = calledBy(child, "remote-1", remoteParent).statusCode(201).extract().path("action_id");
        String unlinked = calledBy(child, "claims-local-1", localRun).statusCode(201).extract().path("action_id");

        Flows.run(linked).body("parent_run_id", equalTo(remoteParent)).body("parent_state", equalTo("Call"));
        // a run of this engine calls its flows in process: an HTTP caller naming one would add children to it
        Flows.run(unlinked).body("parent_run_id", org.hamcrest.Matchers.nullValue());
        assertEquals(List.of(), children(localRun));
        calledBy(child, "remote-2", "not-a-run").statusCode(400)
                .body("errors[0].pointer", equalTo("/headers/Continuum-Parent-Run"));
    }

    static io.restassured.response.ValidatableResponse calledBy(String flowId, String requestId, String parentRun) {
        return given().contentType(ContentType.JSON).header("Continuum-Parent-Run", parentRun)
                .header("Continuum-Parent-State", "Call").body("{\"request_id\":\"" + requestId + "\",\"body\":{\"n\":2}}")
                .when().post("/flows/" + flowId + "/actions/run").then();
    }

    @Test
    void shouldRefuseAnActionWithoutRequestIdNamingTheField() {
        String child = Flows.publish(DOUBLER);
        given().contentType(ContentType.JSON).body("{\"body\":{\"n\":1}}")
                .when().post("/flows/" + child + "/actions/run").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/request_id"));
    }

    @Test
    void shouldRunTheMapSamplesExampleWithAChildRunPerAcceptedSample() throws Exception {
        String child = publishExample("calibrate-sample.json", java.util.Map.of());
        String parent = publishExample("map-samples.json", java.util.Map.of("${child}", actionUrl(child)));
        String run = Flows.start(parent, "{\"gain\":2,\"samples\":[{\"sample\":\"a\",\"reading\":1},"
                + "{\"sample\":\"b\",\"reading\":2},{\"sample\":\"c\",\"reading\":\"unreadable\"}]}");

        Flows.awaitStatus(run, Duration.ofSeconds(60), "SUCCEEDED", "FAILED");
        Flows.run(run).body("status", equalTo("SUCCEEDED"))
                .body("details.output.calibrated[0].calibrated", equalTo(2))
                .body("details.output.calibrated[1].calibrated", equalTo(4))
                .body("details.output.calibrated[2].sample", equalTo("c"))
                // the child flow's input schema refuses a reading that is no number: its call fails, no child run is made
                .body("details.output.calibrated[2].failed", equalTo("ActionUnableToRun"));
        assertEquals(2, children(run).size());
    }

    /** An example of deploy/ as `up` publishes it: its placeholders replaced, posted as it is. */
    static String publishExample(String name, java.util.Map<String, String> placeholders) throws Exception {
        String text = java.nio.file.Files.readString(java.nio.file.Path.of("../../deploy/src/main/resources/examples", name));
        for (var placeholder : placeholders.entrySet()) {
            text = text.replace(placeholder.getKey(), placeholder.getValue());
        }
        return given().contentType(ContentType.JSON).body(text).when().post("/flows")
                .then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    static String startAction(String flowId, String requestId, int n) {
        return given().contentType(ContentType.JSON).body("{\"request_id\":\"" + requestId + "\",\"body\":{\"n\":" + n + "}}")
                .when().post("/flows/" + flowId + "/actions/run").then().statusCode(201).extract().path("action_id");
    }

    static List<String> children(String runId) {
        return Flows.run(runId).extract().path("child_run_ids");
    }

    static String awaitChild(String runId) {
        return await("run " + runId + " starts a child run").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> children(runId), below -> !below.isEmpty()).get(0);
    }
}
