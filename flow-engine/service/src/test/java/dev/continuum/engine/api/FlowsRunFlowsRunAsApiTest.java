package dev.continuum.engine.api;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * An Action state that calls a flow of this engine with a {@code RunAs} role starts the child as that role's identity,
 * not as the parent run's owner: the child is that identity's run, and when that identity may not start the child flow
 * the parent's action fails with {@code FlowStartDenied} and no child run is made, although the owner could start it.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class FlowsRunFlowsRunAsApiTest {

    /** The parent runs' owner, and the identity their Action states run as (RunAs "Curator"). */
    final String scientist = Tokens.of("scientist");
    final String curator = Tokens.of("scientist2");

    /** A child flow of scientist's; {@code roles} adds its flow_starters or flow_viewers. */
    String child(String roles) {
        return Tokens.publish(scientist, "child", "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\","
                + "\"Result\":{\"made\":true},\"ResultPath\":\"$.out\",\"End\":true}}}", roles);
    }

    /** A run of scientist's whose one Action calls {@code childFlow} as the Curator role (scientist2's token). */
    String runCallingAsCurator(String childFlow) {
        String url = "http://127.0.0.1:" + RestAssured.port + "/flows/" + childFlow + "/actions";
        String parent = Tokens.publish(scientist, "parent", "{\"StartAt\":\"Call\",\"States\":{"
                + "\"Call\":{\"Type\":\"Action\",\"ActionUrl\":\"" + url + "\",\"Parameters\":{},\"RunAs\":\"Curator\","
                + "\"ResultPath\":\"$.child\",\"Next\":\"Done\","
                + "\"Catch\":[{\"ErrorEquals\":[\"States.ALL\"],\"ResultPath\":\"$.caught\",\"Next\":\"Caught\"}]},"
                + "\"Caught\":{\"Type\":\"Pass\",\"End\":true},\"Done\":{\"Type\":\"Pass\",\"End\":true}}}", "");
        String run = as(scientist).body("{\"body\":{},\"run_as\":{\"Curator\":\"" + curator + "\"}}")
                .when().post("/flows/" + parent + "/run").then().statusCode(201).extract().path("run_id");
        Tokens.awaitStatus(scientist, run, "SUCCEEDED");
        return run;
    }

    @Test
    void shouldStartTheChildAsTheRunAsIdentity() {
        String run = runCallingAsCurator(child(",\"flow_starters\":[\"scientist2\"]"));

        String childRun = as(scientist).when().get("/runs/" + run).then().statusCode(200)
                .body("details.output.child.status", equalTo("SUCCEEDED"))
                .body("details.output.child.details.out.made", equalTo(true))
                .body("child_run_ids", hasSize(1)).extract().path("child_run_ids[0]");
        as(curator).when().get("/runs/" + childRun).then().statusCode(200)
                .body("run_owner", equalTo("scientist2")).body("parent_run_id", equalTo(run));
    }

    @Test
    void shouldFailTheActionWithFlowStartDeniedAndStartNoChildWhenTheRunAsIdentityMayNotStartTheFlow() {
        String flow = child(",\"flow_viewers\":[\"scientist2\"]");
        String run = runCallingAsCurator(flow);

        as(scientist).when().get("/runs/" + run).then().statusCode(200)
                .body("details.output.caught.Error", equalTo("FlowStartDenied"))
                .body("details.output.caught.Cause", containsString("flow_starters"))
                .body("child_run_ids", empty());
        as(scientist).when().get("/runs?filter_flow_id=" + flow).then().statusCode(200).body("runs", empty());
    }
}
