package dev.continuum.engine.ui;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import dev.continuum.flow.model.FormAction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run page's links between runs and its human-input forms in a real Chromium against the real engine, Keycloak and
 * PostgreSQL: a parent run lists the child run its Action state started (kept, with its status, through the live
 * updates until both succeed), the child links back to its parent; a run waiting for input shows the form generated
 * from the step's schema, checks it before sending, shows the engine's own field errors and goes on once answered; a
 * run monitor is told why they may not answer. axe-core finds nothing on these pages.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class ChildRunsAndInputsBrowserTest extends BrowserTest {

    /** approved (a box), a note of at most 20 characters, copies: a whole number from 1 that only the engine checks is a multiple of 5. */
    static final String SCHEMA = """
            {"type":"object","required":["approved","copies"],"properties":{
              "approved":{"type":"boolean","title":"Approved"},
              "note":{"type":"string","maxLength":20,"title":"Note"},
              "copies":{"type":"integer","minimum":1,"multipleOf":5,"title":"Copies"}}}""";

    /** Waits for an answer to a form of this schema in Approve, then ends; scientist2 is named in selectable_by. */
    static String approval(String schema) {
        return """
            {"StartAt":"Approve","States":{
              "Approve":{"Type":"Action","ActionUrl":"%s","WaitTime":3600,
                "Parameters":{"title":"Approve the copy","description":"Copy /data/x?","schema":%s,"selectable_by":["scientist2"]},
                "ResultPath":"$.approval","Next":"Done"},
              "Done":{"Type":"Pass","End":true}}}""".formatted(FormAction.URL, schema);
    }

    static final String APPROVAL = approval(SCHEMA);

    static String parentCalling(String childFlow) {
        String url = "http://127.0.0.1:" + RestAssured.port + "/flows/" + childFlow + "/actions";
        return """
                {"StartAt":"Calibrate","States":{
                  "Calibrate":{"Type":"Action","ActionUrl":"%s","Parameters":{},"ResultPath":"$.child","Next":"Done"},
                  "Done":{"Type":"Pass","End":true}}}""".formatted(url);
    }

    static String start(String flowId, String label, String roles) {
        return as(Tokens.of("scientist")).body("{\"body\":{},\"label\":\"" + label + "\"" + roles + "}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(201).extract().path("run_id");
    }

    /** A run waiting for its answer to a form of {@code definition}, opened by {@code user}; answers the run's id. */
    String openWaitingRun(String definition, String user, String label, String roles) {
        String run = start(WebUiBrowserTest.publish("scientist", definition, null, null), label, roles);
        Tokens.awaitStatus(Tokens.of("scientist"), run, "INACTIVE");
        signIn(user, "#/runs/" + run);
        return run;
    }

    static String awaitChild(String parentRun) {
        List<String> children = await("run " + parentRun + " starts a child run").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> as(Tokens.of("scientist")).when().get("/runs/" + parentRun).then().statusCode(200)
                        .extract().<List<String>>path("child_run_ids"), found -> found != null && !found.isEmpty());
        return children.get(0);
    }

    @Test
    void shouldListTheChildRunBesideItsStateThroughLiveUpdatesAndLinkTheChildBackToItsParent() throws IOException {
        String childFlow = WebUiBrowserTest.publish("scientist", APPROVAL, null, null);
        String parent = start(WebUiBrowserTest.publish("scientist", parentCalling(childFlow), null, null), "parent run", "");
        String child = awaitChild(parent);
        Tokens.awaitStatus(Tokens.of("scientist"), child, "INACTIVE");

        signIn("scientist", "#/runs/" + parent);
        var listed = page.locator("ul.child-runs li[data-state=Calibrate] li[data-run='" + child + "']");
        assertThat(listed.locator(".badge")).hasText("INACTIVE");
        assertThat(page.locator(".meta .badge")).hasText("INACTIVE"); // waiting on its child, which waits for input

        // answered behind the page's back: the page follows its live stream until both runs succeeded, the child still listed
        as(Tokens.of("scientist")).body("{\"approved\":true,\"copies\":5}").when().post("/runs/" + child + "/inputs/Approve")
                .then().statusCode(200);
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(listed.locator(".badge")).hasText("SUCCEEDED");
        Browser.screenshot(page, "parent-with-child");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a parent run's page").isEmpty();

        listed.locator("a").click();
        assertThat(page.locator(".started-by")).hasText("Started by run parent run (state Calibrate)");
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a child run's page").isEmpty();
        page.locator(".started-by a").click();
        assertThat(page.locator("h1")).hasText("Run parent run");
    }

    @Test
    void shouldAnswerAWaitingRunThroughTheFormCheckedFirstWithTheEnginesFieldErrorsShown() throws IOException {
        String run = openWaitingRun(APPROVAL, "scientist", "waiting for approval", "");
        var form = page.locator("section.human-input[data-state=Approve]");
        assertThat(form.locator("h2")).hasText("Waiting for input: Approve the copy");
        assertThat(form.locator(".input-description")).hasText("Copy /data/x?");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a run waiting for input").isEmpty();

        // checked in the page: nothing is sent while a field breaks the schema
        form.getByLabel("Note").fill("this note is far too long");
        assertThat(page.locator("#input-0-note-error")).hasText("note allows at most 20 characters.");
        assertThat(form.locator("button.send-input")).isDisabled();
        form.getByLabel("Note").fill("go");
        form.locator("button.send-input").click();
        assertThat(page.locator("#input-0-copies-error")).hasText("copies is required.");
        assertThat(page.locator(".meta .badge")).hasText("INACTIVE");

        // what only the engine checks: its error shown under the field it names
        form.getByLabel("Copies").fill("7");
        form.getByLabel("Approved").check();
        form.locator("button.send-input").click();
        assertThat(page.locator("#input-0-copies-error")).hasText("must be multiple of 5.");
        Browser.screenshot(page, "input-engine-error");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a form with the engine's errors").isEmpty();
        as(Tokens.of("scientist")).when().get("/runs/" + run).then().statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("INACTIVE"));

        form.getByLabel("Copies").fill("10");
        form.locator("button.send-input").click();
        assertThat(page.locator(".notice")).hasText("Answer sent for Approve; the run goes on.");
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(page.locator("section.human-input")).hasCount(0);
        as(Tokens.of("scientist")).when().get("/runs/" + run).then()
                .body("details.output.approval.details.approved", org.hamcrest.Matchers.equalTo(true))
                .body("details.output.approval.details.copies", org.hamcrest.Matchers.equalTo(10))
                .body("details.output.approval.details.note", org.hamcrest.Matchers.equalTo("go"));
    }

    @Test
    void shouldTakeAnAnswerTypedAsJsonWhenTheFormsSchemaHasNoFields() throws IOException {
        String run = openWaitingRun(approval("{\"type\":\"string\",\"enum\":[\"copy\",\"skip\"]}"), "scientist", "one word", "");
        var form = page.locator("section.human-input[data-state=Approve]");

        form.getByLabel("Answer (JSON)").fill("\"maybe\"");
        form.locator("button.send-input").click();
        assertThat(form.locator("ul.error li")).hasText("must be one of \"copy\", \"skip\".");
        Browser.screenshot(page, "input-json-refused");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a JSON answer the engine refused").isEmpty();

        form.getByLabel("Answer (JSON)").fill("\"copy\"");
        form.locator("button.send-input").click();
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        as(Tokens.of("scientist")).when().get("/runs/" + run).then()
                .body("details.output.approval.details", org.hamcrest.Matchers.equalTo("copy"));
    }

    @Test
    void shouldTellARunMonitorWhyTheyMayNotAnswer() throws IOException {
        String run = openWaitingRun(APPROVAL, "admin", "watched", ",\"run_monitors\":[\"admin\"]");
        var form = page.locator("section.human-input[data-state=Approve]");
        assertThat(form.locator(".input-refusal")).containsText("but not answer its form in state 'Approve'");
        assertThat(form).containsText("May answer: the run's owner scientist, its managers and scientist2.");
        assertThat(form.locator("form")).hasCount(0);
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a form the user may not answer").isEmpty();
        as(Tokens.of("scientist")).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }
}
