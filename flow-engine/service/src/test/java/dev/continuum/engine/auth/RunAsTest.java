package dev.continuum.engine.auth;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static dev.continuum.engine.auth.DelegatedRunsTest.awaitStatus;
import static dev.continuum.engine.auth.DelegatedRunsTest.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** An Action state's RunAs picks whose identity its provider sees: the starter, the flow's service account, or a role. */
@QuarkusTest
@TestProfile(AuthOn.class)
class RunAsTest {

    static String flowRunningAs(String runAs) {
        return "{\"StartAt\":\"Who\",\"States\":{\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("whoami")
                + "\",\"Parameters\":{},\"ResultPath\":\"$.who\"" + (runAs == null ? "" : ",\"RunAs\":\"" + runAs + "\"")
                + ",\"End\":true}}}";
    }

    static String callerSeenBy(String token, String flow, String startBody) {
        String run = as(token).body(startBody).when().post("/flows/" + flow + "/run")
                .then().log().ifValidationFails().statusCode(201).extract().path("run_id");
        awaitStatus(token, run, "SUCCEEDED");
        return as(token).when().get("/runs/" + run).then().extract().path("details.output.who.details.caller");
    }

    @Test
    void shouldActAsTheStarterWhenRunAsIsUser() {
        String scientist = Tokens.of("scientist");

        assertThat(callerSeenBy(scientist, publish(scientist, flowRunningAs("User")), "{\"body\":{}}")).isEqualTo("scientist");
    }

    @Test
    void shouldActAsTheFlowsServiceAccountWhenRunAsIsFlow() {
        String scientist = Tokens.of("scientist");

        assertThat(callerSeenBy(scientist, publish(scientist, flowRunningAs("Flow")), "{\"body\":{}}"))
                .isEqualTo("service-account-continuum-engine");
    }

    @Test
    void shouldActAsTheRoleWhoseTokenWasSuppliedAtStartWithoutEchoingIt() {
        String scientist = Tokens.of("scientist");
        String curator = Tokens.of("admin");
        String flow = publish(scientist, flowRunningAs("Curator"));

        String started = as(scientist).body("{\"body\":{},\"run_as\":{\"Curator\":\"" + curator + "\"}}")
                .when().post("/flows/" + flow + "/run").then().statusCode(201).extract().asString();
        assertThat(started).doesNotContain(curator).doesNotContain("eyJ");
        String run = io.restassured.path.json.JsonPath.from(started).getString("run_id");
        awaitStatus(scientist, run, "SUCCEEDED");
        as(scientist).when().get("/runs/" + run).then().body("details.output.who.details.caller", equalTo("admin"));
    }

    @Test
    void shouldRefuseTheStartWhenARolesTokenIsMissing() {
        String scientist = Tokens.of("scientist");
        String flow = publish(scientist, flowRunningAs("Curator"));

        as(scientist).body("{\"body\":{}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].pointer", equalTo("/run_as/Curator"));
    }

    @Test
    void shouldRefuseTheStartWhenARolesTokenIsNotAToken() {
        String scientist = Tokens.of("scientist");
        String flow = publish(scientist, flowRunningAs("Curator"));

        as(scientist).body("{\"body\":{},\"run_as\":{\"Curator\":\"not-a-token\"}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].pointer", equalTo("/run_as/Curator"))
                .body("detail", containsString("refused"));
    }
}
