package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.NoticeReceivers;
import dev.continuum.engine.support.NoticeReceivers.Received;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.flow.model.FormAction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/** Globus' activity_notification_policy: a run tells its owner by e-mail and a signed webhook when it reaches a named status. */
@QuarkusTest
@TestProfile(NoticeReceivers.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RunNotificationsApiTest {

    static final String SUCCEEDS = """
            {"StartAt":"One","States":{"One":{"Type":"Pass","Result":1,"ResultPath":"$.one","End":true}}}""";
    /** Waits INACTIVE for a person's answer, so Globus' default policy (INACTIVE) has something to tell. */
    static final String ASKS = """
            {"StartAt":"Approve","States":{"Approve":{"Type":"Action","ActionUrl":"%s","WaitTime":3600,
             "Parameters":{"title":"Approve the copy","schema":{"type":"object","properties":{"ok":{"type":"boolean"}}}},
             "ResultPath":"$.approval","End":true}}}""".formatted(FormAction.URL);
    static final String FAILS = """
            {"StartAt":"Boom","States":{"Boom":{"Type":"Fail","Error":"DataMissing","Cause":"cause-with-detail-x9"}}}""";

    private static String publish(String definition) {
        return given().contentType(ContentType.JSON).body("{\"title\":\"notify\",\"definition\":" + definition + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    private static String start(String flowId, String label, String policy) {
        return given().contentType(ContentType.JSON)
                .body("{\"body\":{\"password\":\"hunter2-secret\"},\"label\":\"" + label + "\""
                        + (policy == null ? "" : ",\"activity_notification_policy\":" + policy) + "}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(201).extract().path("run_id");
    }

    private static Optional<Received> webhookFor(String runId) {
        return NoticeReceivers.posts().stream().filter(p -> p.get("body").contains(runId)).findFirst();
    }

    private static Received awaitWebhook(String runId) throws InterruptedException {
        return await(() -> webhookFor(runId), "webhook notice for run " + runId);
    }

    private static Received awaitMail(String runId) throws InterruptedException {
        return await(() -> NoticeReceivers.mails().stream().filter(m -> m.get("text").contains(runId)).findFirst(),
                "e-mail notice for run " + runId + " among " + NoticeReceivers.mails().size() + " received: " + NoticeReceivers.mails());
    }

    private static Received await(Supplier<Optional<Received>> found, String what) {
        return Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(found::get, Optional::isPresent).get();
    }

    @Test
    void shouldEmailAndPostSignedWebhookWhenRunSucceedsAndPolicyNamesSucceeded() throws Exception {
        String runId = start(publish(SUCCEEDS), "nightly", "{\"status\":[\"SUCCEEDED\",\"FAILED\"]}");
        given().when().get("/runs/" + runId).then().statusCode(200).body("run_owner", equalTo(NoticeReceivers.OWNER))
                .body("activity_notification_policy.status", equalTo(List.of("SUCCEEDED", "FAILED")));

        Received mail = awaitMail(runId);
        assertThat(mail.get("to")).isEqualTo(NoticeReceivers.OWNER);
        assertThat(mail.get("subject")).isEqualTo("[Continuum] Run 'nightly' is SUCCEEDED");
        assertThat(mail.get("text")).contains("continuum watch " + runId).doesNotContain("hunter2");

        Received post = awaitWebhook(runId);
        JsonPath json = new JsonPath(post.get("body"));
        assertThat(json.getString("status")).isEqualTo("SUCCEEDED");
        assertThat(json.getString("label")).isEqualTo("nightly");
        assertThat(json.getString("run_owner")).isEqualTo(NoticeReceivers.OWNER);
        assertThat(post.get("body")).doesNotContain("hunter2").doesNotContain(NoticeReceivers.SECRET);
        assertThat(post.get("X-Continuum-Signature"))
                .isEqualTo("sha256=" + hmac(post.get("X-Continuum-Timestamp") + "." + post.get("body")));
    }

    @Test
    void shouldNameTheErrorButNotTheCauseWhenRunFails() throws Exception {
        String runId = start(publish(FAILS), "failing", "{\"status\":[\"FAILED\"]}");

        JsonPath json = new JsonPath(awaitWebhook(runId).get("body"));

        assertThat(json.getString("status")).isEqualTo("FAILED");
        assertThat(json.getString("error")).isEqualTo("DataMissing");
        assertThat(awaitMail(runId).get("text")).contains("DataMissing").doesNotContain("cause-with-detail-x9");
        assertThat(webhookFor(runId).orElseThrow().get("body")).doesNotContain("cause-with-detail-x9");
    }

    @Test
    void shouldStayQuietWhenThePolicyDoesNotNameTheStatusAndShowGlobusDefault() throws Exception {
        String flowId = publish(SUCCEEDS);
        String quiet = start(flowId, "quiet", null);
        String onlyFailures = start(flowId, "only-failures", "{\"status\":[\"FAILED\"]}");
        String marker = start(flowId, "marker", "{\"status\":[\"SUCCEEDED\"]}");
        awaitWebhook(marker); // notices of the earlier runs would have been sent before this one

        assertThat(webhookFor(quiet)).isEmpty();
        assertThat(webhookFor(onlyFailures)).isEmpty();
        given().when().get("/runs/" + quiet).then().statusCode(200)
                .body("activity_notification_policy.status", equalTo(List.of("INACTIVE")));
        given().when().get("/runs/" + onlyFailures).then().statusCode(200)
                .body("activity_notification_policy.status", equalTo(List.of("FAILED")));
    }

    @Test
    void shouldEmailTheOwnerWhenARunWaitsForInputUnderGlobusDefaultPolicy() throws Exception {
        String runId = start(publish(ASKS), "needs-approval", null);
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "INACTIVE");

        Received mail = awaitMail(runId);

        assertThat(mail.get("to")).isEqualTo(NoticeReceivers.OWNER);
        assertThat(mail.get("subject")).isEqualTo("[Continuum] Run 'needs-approval' is INACTIVE");
        assertThat(mail.get("text")).contains("continuum watch " + runId).doesNotContain("hunter2");
        assertThat(new JsonPath(awaitWebhook(runId).get("body")).getString("status")).isEqualTo("INACTIVE");
    }

    @Test
    void shouldRetryTheWebhookWithoutHoldingTheRunWhenTheReceiverFailsAtFirst() throws Exception {
        String runId = start(publish(SUCCEEDS), "flaky", "{\"status\":[\"SUCCEEDED\"]}");
        Flows.awaitStatus(runId, Duration.ofSeconds(5), "SUCCEEDED");

        awaitWebhook(runId);

        assertThat(NoticeReceivers.refused()).isGreaterThanOrEqualTo(NoticeReceivers.FLAKY_FAILURES);
        assertThat(NoticeReceivers.posts().stream().filter(p -> p.get("body").contains(runId)))
                .map(p -> p.get("X-Continuum-Delivery")).hasSize(1);
    }

    @Test
    void shouldRefuseAStatusGlobusDoesNotNotifyOnNamingTheField() {
        String flowId = publish(SUCCEEDS);

        given().contentType(ContentType.JSON).body("{\"body\":{},\"activity_notification_policy\":{\"status\":[\"FAILED\",\"DONE\"]}}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(400)
                .body("errors.pointer", hasItem("/activity_notification_policy/status/1"));
        given().contentType(ContentType.JSON).body("{\"body\":{},\"activity_notification_policy\":{}}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(400)
                .body("errors.pointer", hasItem("/activity_notification_policy/status"));
    }

    private static String hmac(String payload) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(NoticeReceivers.SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
    }
}
