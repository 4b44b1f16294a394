package dev.continuum.engine.ui;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * GET /runs/{id}/actions: a run's unfinished actions as their providers report them now, asked with the run's own
 * delegated token (the engine's built-in sleep provider, with authentication on), for whoever may see the run.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class RunActionsTest {

    /** Ten minutes ACTIVE at the engine's own sleep provider (its URL needs the test port: built per test). */
    static String nap() {
        return "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("sleep")
                + "\",\"Parameters\":{\"seconds\":600},\"WaitTime\":86400,\"ResultPath\":\"$.nap\",\"End\":true}}}";
    }

    @Test
    void shouldAskTheProviderNowAboutTheRunsActionAndListNothingOnceItEnded() {
        String token = Tokens.of("scientist");
        String flow = WebUiBrowserTest.publish("scientist", nap(), null, "\"run_monitors\":[\"scientist2\"]");
        String run = WebUiBrowserTest.start("scientist", flow, "actions");

        await("the sleep action, once the provider accepted it").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(actionsOf(token, run)).as("the sleep action, once the provider accepted it").hasSize(1));
        as(token).when().get("/runs/" + run + "/actions").then().statusCode(200)
                .body("actions[0].state_name", equalTo("Nap"))
                .body("actions[0].action_url", equalTo(Flows.provider("sleep")))
                .body("actions[0].status", equalTo("ACTIVE"))
                .body("actions[0].display_status", equalTo("Sleeping"))
                .body("actions[0].details.wake_at", notNullValue());
        // a monitor of the run may watch it too
        as(Tokens.of("scientist2")).when().get("/runs/" + run + "/actions").then().statusCode(200)
                .body("actions[0].status", equalTo("ACTIVE"));

        as(token).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
        await("nothing running once the run was cancelled").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(actionsOf(token, run)).as("nothing running once the run was cancelled").isEmpty());
    }

    private static List<?> actionsOf(String token, String run) {
        return as(token).when().get("/runs/" + run + "/actions").then().statusCode(200).extract().path("actions");
    }

    @Test
    void shouldAnswerNotFoundToWhoeverMayNotSeeTheRunAndBadRequestForABadId() {
        String flow = WebUiBrowserTest.publish("scientist", nap(), null, null);
        String run = WebUiBrowserTest.start("scientist", flow, "private");
        as(Tokens.of("scientist2")).when().get("/runs/" + run + "/actions").then().statusCode(404);
        as(Tokens.of("scientist")).when().get("/runs/not-a-uuid/actions").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/runId"));
        given().when().get("/runs/" + run + "/actions").then().statusCode(401);
        as(Tokens.of("scientist")).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }
}
