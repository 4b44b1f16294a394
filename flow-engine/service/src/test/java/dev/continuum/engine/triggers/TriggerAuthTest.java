package dev.continuum.engine.triggers;

import dev.continuum.auth.keycloak.KeycloakAdmin;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.engine.app.triggers.WebhookSignature;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.TestClock;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Triggers with authentication on, against the real Keycloak: roles, and runs that act for the owner. */
@QuarkusTest
@TestProfile(AuthOn.class)
class TriggerAuthTest {

    @Inject
    TestClock clock;


    /** A flow whose one Action calls a provider that answers with the caller its token names. */
    private static String whoAmIFlow(String token) {
        String definition = "{\"StartAt\":\"Who\",\"States\":{\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\""
                + Flows.provider("whoami") + "\",\"Parameters\":{},\"ResultPath\":\"$.who\",\"End\":true}}}";
        return as(token).body("{\"title\":\"who\",\"definition\":" + definition + ",\"flow_viewers\":[\"scientist2\"]}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    private static String trigger(String token, String flowId, String type) {
        return as(token).body("""
                        {"title":"as owner","source":{"type":"%s"},"flow_id":"%s","viewers":["scientist2"]}"""
                        .formatted(type, flowId))
                .when().post("/triggers").then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    @Test
    void shouldStartRunsThatCallProvidersAsTheTriggersOwnerLongAfterCreation() {
        String scientist = Tokens.of("scientist");
        String triggerId = trigger(scientist, whoAmIFlow(scientist), "api");

        String runId = as(scientist).body("{\"dedup_key\":\"e-1\",\"event\":{}}").when().post("/triggers/" + triggerId + "/events")
                .then().statusCode(202).body("outcome", equalTo("started")).extract().path("run_id");

        DelegatedRunsWait.succeeded(scientist, runId);
        as(scientist).when().get("/runs/" + runId).then()
                .body("run_owner", equalTo("scientist"))
                .body("details.output.who.details.caller", equalTo("scientist"));
    }

    @Test
    void shouldLetAViewerReadButNotChangeAndHideTheTriggerFromOthers() {
        String scientist = Tokens.of("scientist");
        String viewer = Tokens.of("scientist2");
        String stranger = Tokens.of("admin");
        String triggerId = trigger(scientist, whoAmIFlow(scientist), "api");

        as(viewer).when().get("/triggers/" + triggerId).then().statusCode(200).body("user_role", equalTo("viewer"));
        as(viewer).when().get("/triggers/" + triggerId + "/events").then().statusCode(200);
        as(viewer).when().post("/triggers/" + triggerId + "/pause").then().statusCode(403);
        as(viewer).body("{\"dedup_key\":\"v\",\"event\":{}}").when().post("/triggers/" + triggerId + "/events").then().statusCode(403);
        as(stranger).when().get("/triggers/" + triggerId).then().statusCode(404);
        given().when().get("/triggers/" + triggerId).then().statusCode(401);
    }

    @Test
    void shouldRefuseATriggerOnAFlowTheCreatorMayOnlySee() {
        String flowId = whoAmIFlow(Tokens.of("scientist"));

        as(Tokens.of("scientist2")).body("{\"title\":\"t\",\"source\":{\"type\":\"api\"},\"flow_id\":\"" + flowId + "\"}")
                .when().post("/triggers").then().statusCode(403);
    }

    @Test
    void shouldTakeASignedWebhookWithoutABearerToken() {
        String scientist = Tokens.of("scientist");
        var created = as(scientist).body("""
                        {"title":"hook","source":{"type":"webhook"},"flow_id":"%s"}""".formatted(whoAmIFlow(scientist)))
                .when().post("/triggers").then().statusCode(201).extract();
        byte[] body = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        String timestamp = String.valueOf(clock.instant().getEpochSecond());

        String runId = given().header("X-Continuum-Delivery", "h-1").header("X-Continuum-Timestamp", timestamp)
                .header("X-Continuum-Signature", WebhookSignature.sign(created.path("webhook.secret"), timestamp, body))
                .contentType(ContentType.JSON).body(body)
                .when().post("/triggers/" + created.path("id") + "/webhook").then().statusCode(202)
                .body("outcome", equalTo("started")).extract().path("run_id");

        DelegatedRunsWait.succeeded(scientist, runId);
    }

    @Test
    void shouldRejectAChainedRunItsOwnerMayNotSeeSayingWhyAndIgnoreFlowsTheyMayNotSee() {
        String scientist = Tokens.of("scientist");
        String scientist2 = Tokens.of("scientist2");
        // scientist2 may see flow A (a flow viewer) but none of its runs, and may not see flow C at all
        String a = as(scientist).body("{\"title\":\"A\",\"definition\":" + Triggers.KEEP_INPUT + ",\"flow_viewers\":[\"scientist2\"]}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String c = as(scientist).body("{\"title\":\"C\",\"definition\":" + Triggers.KEEP_INPUT + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String b = as(scientist2).body("{\"title\":\"B\",\"definition\":" + Triggers.KEEP_INPUT + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String trigger = as(scientist2).body("""
                        {"title":"after any run","source":{"type":"run"},"flow_id":"%s"}""".formatted(b))
                .when().post("/triggers").then().statusCode(201).extract().path("id");
        as(scientist2).body("""
                        {"title":"after C","source":{"type":"run","flow_id":"%s"},"flow_id":"%s"}""".formatted(c, b))
                .when().post("/triggers").then().statusCode(400).body("errors[0].pointer", equalTo("/source/flow_id"));

        String hiddenRunOfC = as(scientist).body("{\"body\":{\"secret\":1}}").when().post("/flows/" + c + "/run")
                .then().statusCode(201).extract().path("run_id");
        DelegatedRunsWait.succeeded(scientist, hiddenRunOfC);
        String run = as(scientist).body("{\"body\":{\"secret\":2}}").when().post("/flows/" + a + "/run")
                .then().statusCode(201).extract().path("run_id");
        DelegatedRunsWait.succeeded(scientist, run);

        await("trigger " + trigger + " records an event").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> as(scientist2).when().get("/triggers/" + trigger + "/events").then()
                        .extract().<java.util.List<?>>path("events"), events -> !events.isEmpty());
        as(scientist2).when().get("/triggers/" + trigger + "/events").then().statusCode(200)
                .body("events.size()", equalTo(1))
                .body("events[0].outcome", equalTo("rejected"))
                .body("events[0].reason", org.hamcrest.Matchers.containsString("may not see run " + run))
                .body("events[0].event.output", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void shouldKeepStartingRunsAsTheServiceAccountAfterTheOwnersSessionIsGone() {
        String admin = Tokens.of("admin");
        String account = "service-account-continuum-triggers";
        String flow = as(admin).body("{\"title\":\"unattended\",\"definition\":" + Triggers.KEEP_INPUT
                        + ",\"flow_starters\":[\"" + account + "\"]}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String hook = """
                {"title":"%s","source":{"type":"webhook"},"flow_id":"%s"%s}""";
        as(Tokens.of("scientist")).body(hook.formatted("not mine to bind", flow, ",\"run_as\":\"service_account\""))
                .when().post("/triggers").then().statusCode(403);
        var bound = as(admin).body(hook.formatted("as the service account", flow, ",\"run_as\":\"service_account\""))
                .when().post("/triggers").then().statusCode(201).body("run_as", equalTo("service_account")).extract();
        var personal = as(admin).body(hook.formatted("as its owner", flow, ""))
                .when().post("/triggers").then().statusCode(201).body("run_as", equalTo("owner")).extract();

        new KeycloakAdmin(KeycloakServer.shared()).signOutEverywhere("admin");
        clock.advance(Duration.ofHours(2)); // past any access token the engine still held for the owner

        deliver(personal.path("id"), personal.path("webhook.secret"), "p-1").body("outcome", equalTo("rejected"));
        String run = deliver(bound.path("id"), bound.path("webhook.secret"), "b-1").body("outcome", equalTo("started"))
                .extract().path("run_id");
        String again = Tokens.of("admin"); // a new session, only to read what happened
        DelegatedRunsWait.succeeded(again, run);
        as(again).when().get("/runs/" + run).then().body("run_owner", equalTo(account));
    }

    @Test
    void shouldCallProvidersAsTheServiceAccountWhenATriggerBoundToItStartsARun() {
        String admin = Tokens.of("admin");
        String account = "service-account-continuum-triggers";
        String definition = "{\"StartAt\":\"Who\",\"States\":{\"Who\":{\"Type\":\"Action\",\"ActionUrl\":\""
                + Flows.provider("whoami") + "\",\"Parameters\":{},\"ResultPath\":\"$.who\",\"End\":true}}}";
        String flow = as(admin).body("{\"title\":\"who, unattended\",\"definition\":" + definition
                        + ",\"flow_starters\":[\"" + account + "\"]}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        var bound = as(admin).body("""
                        {"title":"calls a provider as the account","source":{"type":"webhook"},"flow_id":"%s",
                         "run_as":"service_account"}""".formatted(flow))
                .when().post("/triggers").then().statusCode(201).extract();

        // the provider checks the token the engine exchanged from the account's client-credentials token
        String run = deliver(bound.path("id"), bound.path("webhook.secret"), "who-1").body("outcome", equalTo("started"))
                .extract().path("run_id");

        DelegatedRunsWait.succeeded(admin, run);
        as(admin).when().get("/runs/" + run).then()
                .body("run_owner", equalTo(account))
                .body("details.output.who.details.caller", equalTo(account));
    }

    private io.restassured.response.ValidatableResponse deliver(String trigger, String secret, String delivery) {
        byte[] body = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        String timestamp = String.valueOf(clock.instant().getEpochSecond());
        return given().header("X-Continuum-Delivery", delivery).header("X-Continuum-Timestamp", timestamp)
                .header("X-Continuum-Signature", WebhookSignature.sign(secret, timestamp, body))
                .contentType(ContentType.JSON).body(body)
                .when().post("/triggers/" + trigger + "/webhook").then().log().ifValidationFails().statusCode(202);
    }

    /** Bounded wait for a run to succeed, read with the owner's token. */
    static final class DelegatedRunsWait {
        static void succeeded(String token, String runId) {
            await("run " + runId + " finishes").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> as(token).when().get("/runs/" + runId).then().statusCode(200).extract().<String>path("status"),
                            org.hamcrest.Matchers.in(new String[] {"SUCCEEDED", "FAILED"}));
            as(token).when().get("/runs/" + runId).then().body("status", equalTo("SUCCEEDED"));
        }
    }
}
