package dev.continuum.engine.auth;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.auth.vault.TokenVault;
import dev.continuum.engine.adapters.auth.DelegatedTokens;
import dev.continuum.engine.adapters.persistence.JdbcSealedGrants;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.TestClock;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Runs act for the person who started them: per-provider tokens by token exchange against the real Keycloak. */
@QuarkusTest
@TestProfile(AuthOn.class)
class DelegatedRunsTest {

    @Inject
    TestClock clock;

    @Inject
    DataSource db;

    @Inject
    JdbcSealedGrants grants;

    static String callFlow(String actionUrl) {
        return "{\"StartAt\":\"Who\",\"States\":{\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\"" + actionUrl
                + "\",\"Parameters\":{},\"ResultPath\":\"$.who\",\"End\":true}}}";
    }

    static String waitThenCallFlow(String actionUrl) {
        return "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"Next\":\"Who\"},"
                + "\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\"" + actionUrl + "\",\"Parameters\":{},\"ResultPath\":\"$.who\",\"End\":true}}}";
    }

    /** A provider action that stays ACTIVE for 10 minutes; WaitTime a day, so moving the clock does not time it out. */
    static String longSleepFlow() {
        return "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("sleep")
                + "\",\"Parameters\":{\"seconds\":600},\"WaitTime\":86400,\"ResultPath\":\"$.nap\",\"End\":true}}}";
    }

    static String publish(String token, String definition) {
        return as(token).body("{\"title\":\"delegation\",\"definition\":" + definition + "}")
                .when().post("/flows").then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    static String start(String token, String flowId) {
        return as(token).body("{\"body\":{}}").when().post("/flows/" + flowId + "/run")
                .then().log().ifValidationFails().statusCode(201).extract().path("run_id");
    }

    static String awaitStatus(String token, String runId, String wanted) {
        return Tokens.awaitStatus(token, runId, wanted);
    }

    int grantRows(String runId) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement q = c.prepareStatement("SELECT count(*) FROM run_grants WHERE run_id = ?")) {
            q.setObject(1, UUID.fromString(runId));
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void shouldCallTheProviderWithATokenNamingTheStarter() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, callFlow(Flows.provider("whoami"))));

        awaitStatus(scientist, run, "SUCCEEDED");
        as(scientist).when().get("/runs/" + run).then().body("details.output.who.details.caller", equalTo("scientist"));
    }

    @Test
    void shouldReachTheBuiltinProvidersThroughAGlobusActionUrlWithAuthenticationOn() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, callFlow("https://actions.globus.org/hello_world")));

        awaitStatus(scientist, run, "SUCCEEDED");
    }

    @Test
    void shouldKeepEveryTokenOutOfTheRunItsLogAndTheApi() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, callFlow(Flows.provider("whoami"))));
        awaitStatus(scientist, run, "SUCCEEDED");

        String view = as(scientist).when().get("/runs/" + run).then().statusCode(200).extract().asString();
        String log = as(scientist).when().get("/runs/" + run + "/log").then().statusCode(200).extract().asString();
        assertThat(view).doesNotContain("eyJ").doesNotContain(scientist);
        assertThat(log).doesNotContain("eyJ").doesNotContain(scientist);
    }

    @Test
    void shouldKeepTheSealedGrantWhileTheRunWaitsAndDropItWhenTheRunEnds() throws SQLException {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, waitThenCallFlow(Flows.provider("whoami"))));

        assertThat(grantRows(run)).isEqualTo(1);
        as(scientist).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
        awaitStatus(scientist, run, "ENDED");
        await("the ended run's sealed grant dropped").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(grantRows(run)).as("sealed grants of the ended run").isZero());
    }

    @Test
    void shouldHoldOneGrantPerDistinctProviderAudienceAmongTheFlowsActionStates() throws SQLException {
        String scientist = Tokens.of("scientist");
        String flow = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"Next\":\"Both\"},"
                + "\"Both\":{\"Type\":\"Parallel\",\"Branches\":["
                + "{\"StartAt\":\"Who\",\"States\":{\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("whoami") + "\",\"Parameters\":{},\"End\":true}}},"
                + "{\"StartAt\":\"Echo\",\"States\":{\"Echo\":{\"Type\":\"Action\",\"ActionUrl\":\"" + Flows.provider("echo") + "\",\"Parameters\":{},\"End\":true}}},"
                + "{\"StartAt\":\"Move\",\"States\":{\"Move\":{\"Type\":\"Action\",\"ActionUrl\":\"http://127.0.0.1:9/providers/transfer/transfer\",\"Parameters\":{},\"End\":true}}}"
                + "],\"End\":true}}}";
        String run = start(scientist, publish(scientist, flow));

        assertThat(grantAudiences(run)).containsExactlyInAnyOrder("continuum-provider-builtin", "continuum-provider-transfer");
        as(scientist).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    java.util.List<String> grantAudiences(String runId) throws SQLException {
        java.util.List<String> found = new java.util.ArrayList<>();
        try (Connection c = db.getConnection();
             PreparedStatement q = c.prepareStatement("SELECT audience FROM run_grants WHERE run_id = ?")) {
            q.setObject(1, UUID.fromString(runId));
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        return found;
    }

    @Test
    void shouldRefuseTheStartWithAProblemWhenTheIdentityProviderRefusesToDelegate() {
        String scientist = Tokens.of("scientist");
        String flow = publish(scientist, callFlow(AuthOn.REFUSED_PROVIDER + "act"));

        as(scientist).body("{\"body\":{}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(403).contentType("application/problem+json")
                .body("detail", containsString("refused to issue provider tokens"));
        as(scientist).when().get("/runs?flow_id=" + flow).then().statusCode(200).body("runs.size()", equalTo(0));
    }

    @Test
    void shouldRefuseTheStartOfAFlowWhoseProviderTheEngineCannotName() {
        String scientist = Tokens.of("scientist");
        String flow = publish(scientist, callFlow("https://unknown.example.org/act"));

        as(scientist).body("{\"body\":{}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].pointer", equalTo("/States/Who/ActionUrl"))
                .body("detail", containsString("continuum.auth.provider-audiences"));
    }

    @Test
    void shouldGoInactiveWhenTheGrantIsRevokedAndContinueAfterSigningInAgainAndResuming() {
        String before = Tokens.of("scientist2");
        String run = start(before, publish(before, waitThenCallFlow(Flows.provider("whoami"))));

        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("scientist2");
        clock.advance(Duration.ofHours(2));
        awaitStatus(before, run, "INACTIVE");
        as(before).when().get("/runs/" + run).then()
                .body("details.inactive_reason", containsString("sign in again"));
        as(before).when().get("/runs/" + run + "/log").then().body("entries.code", org.hamcrest.Matchers.hasItem("FlowInactive"));

        as(before).when().post("/runs/" + run + "/resume").then().log().ifValidationFails().statusCode(401).contentType("application/problem+json");
        awaitStatus(before, run, "INACTIVE");

        String after = Tokens.of("scientist2");
        as(after).when().post("/runs/" + run + "/resume").then().statusCode(200);
        awaitStatus(after, run, "SUCCEEDED");
        as(after).when().get("/runs/" + run).then().body("details.output.who.details.caller", equalTo("scientist2"));
    }

    @Test
    void shouldGoInactiveWhenRevokedWhileTheActionRunsAndPollItAgainAfterResume() {
        String before = Tokens.of("scientist2");
        String run = start(before, publish(before, longSleepFlow()));
        awaitLogged(before, run, "ActionStarted");

        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("scientist2");
        clock.advance(Duration.ofHours(2));
        awaitStatus(before, run, "INACTIVE");

        String after = Tokens.of("scientist2");
        as(after).when().post("/runs/" + run + "/resume").then().statusCode(200);
        awaitLogged(after, run, "FlowResumed");
        clock.advance(Duration.ofMinutes(30));
        await("the resumed run stays ACTIVE while the engine polls its action again").during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> as(after).when().get("/runs/" + run).then().extract().<String>path("status"), equalTo("ACTIVE"));
        as(after).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldLetAnotherEngineInstanceRenewFromTheGrantStoredInPostgres() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, waitThenCallFlow(Flows.provider("whoami"))));
        DelegatedTokens otherInstance = new DelegatedTokens(Tokens.client(), Tokens.ENGINE,
                TokenVault.fromBase64Key(AuthOn.VAULT_KEY), grants, clock, Duration.ofSeconds(60));

        String token = otherInstance.tokenFor(UUID.fromString(run), "user", ProviderAudiences.BUILTIN);

        assertThat(JwtClaims.readUnverified(token).username()).contains("scientist");
        assertThat(JwtClaims.readUnverified(token).audience()).containsExactly("continuum-provider-builtin");
        as(scientist).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldReleaseAFinishedActionWithTheRunsToken() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, callFlow(Flows.provider("whoami"))));
        awaitStatus(scientist, run, "SUCCEEDED");
        String actionId = as(scientist).when().get("/runs/" + run).then().extract().path("details.output.who.action_id");
        String providerToken = Tokens.forProvider("scientist", "continuum-provider-builtin", "actions:builtin");

        int status = await("the provider's status call for the released action to stop answering 200")
                .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> given().header("Authorization", "Bearer " + providerToken)
                        .when().get("/providers/whoami/" + actionId + "/status").then().extract().statusCode(), s -> s != 200);
        assertThat(status).as("the engine's release call was accepted, so the provider forgot the action").isEqualTo(404);
    }

    @Test
    void shouldCancelARunningActionWithTheRunsToken() {
        String scientist = Tokens.of("scientist");
        String run = start(scientist, publish(scientist, longSleepFlow()));
        awaitLogged(scientist, run, "ActionStarted");
        String actionId = await("the provider's action id, logged when it answered").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> as(scientist).when().get("/runs/" + run + "/log?limit=1000").then()
                        .extract().<java.util.List<String>>path("entries.details.action_id").stream()
                        .filter(java.util.Objects::nonNull).findFirst().orElse(null), java.util.Objects::nonNull);

        as(scientist).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);

        String providerToken = Tokens.forProvider("scientist", "continuum-provider-builtin", "actions:builtin");
        await("the engine's cancel call was accepted by the provider").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(given().header("Authorization", "Bearer " + providerToken)
                        .when().get("/providers/sleep/" + actionId + "/status").then().extract().<String>path("status"))
                        .as("the engine's cancel call was accepted by the provider").isNotEqualTo("ACTIVE"));
    }

    static void awaitLogged(String token, String runId, String code) {
        await("run " + runId + " logs " + code).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> as(token).when().get("/runs/" + runId + "/log?limit=1000").then().statusCode(200)
                        .extract().<java.util.List<String>>path("entries.code"), codes -> codes.contains(code));
    }

    @Test
    void shouldLetOnlyTheRunsManagerResumeItAfterRevocation() {
        String owner = Tokens.of("scientist2");
        String run = start(owner, publish(owner, waitThenCallFlow(Flows.provider("whoami"))));
        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("scientist2");
        clock.advance(Duration.ofHours(2));
        awaitStatus(owner, run, "INACTIVE");

        as(Tokens.of("admin")).when().post("/runs/" + run + "/resume").then().statusCode(404);
        as(Tokens.of("scientist2")).when().post("/runs/" + run + "/resume").then().statusCode(200);
    }
}
