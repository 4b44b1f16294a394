package dev.continuum.engine.ui;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.AriaRole;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web UI in a real headless Chromium against the real engine, Keycloak and PostgreSQL: users sign in through
 * Keycloak's own login page (PKCE), and everything they do goes through the engine's API with their token.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class WebUiBrowserTest extends BrowserTest {

    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";
    static final String GREET = """
            {"StartAt":"Greet","States":{
              "Greet":{"Type":"Pass","Parameters":{"greeting.=":"'hello ' + name"},"ResultPath":"$.out","Next":"Count"},
              "Count":{"Type":"Pass","End":true}}}""";
    static final String GREET_SCHEMA = """
            {"type":"object","required":["name","count"],"properties":{
              "name":{"type":"string","title":"Name","minLength":2},
              "count":{"type":"integer","title":"Count","minimum":1}}}""";

    /** The form control with exactly this label (state names on the graph may share words with field labels). */
    Locator label(String text) {
        return page.getByLabel(text, new Page.GetByLabelOptions().setExact(true));
    }

    static String publish(String user, String definition, String schema, String roles) {
        return given().header("Authorization", "Bearer " + Tokens.of(user)).contentType(ContentType.JSON)
                .body("{\"title\":\"ui test " + UUID.randomUUID().toString().substring(0, 6) + "\",\"definition\":" + definition
                        + (schema == null ? "" : ",\"input_schema\":" + schema) + (roles == null ? "" : "," + roles) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    static String start(String user, String flowId, String label) {
        return start(user, flowId, label, "{}");
    }

    static String start(String user, String flowId, String label, String input) {
        return given().header("Authorization", "Bearer " + Tokens.of(user)).contentType(ContentType.JSON)
                .body("{\"body\":" + input + ",\"label\":\"" + label + "\",\"tags\":[\"ui\"]}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(201).extract().path("run_id");
    }

    @Test
    void shouldStartARunFromTheGeneratedFormAndShowItGreenOnTheGraph() {
        String flow = publish("scientist", GREET, GREET_SCHEMA, null);
        signIn("scientist", "#/flows/" + flow);

        page.locator("form.start-form").getByLabel("Name").fill("a");
        page.locator("form.start-form").getByLabel("Count").fill("0");
        assertThat(page.locator("#field-name-error")).hasText("name needs at least 2 characters.");
        assertThat(page.locator("#field-count-error")).hasText("count must be at least 1.");
        assertThat(page.locator("#start-run")).isDisabled();
        Browser.screenshot(page, "start-form-invalid");

        page.locator("form.start-form").getByLabel("Name").fill("Ada");
        page.locator("form.start-form").getByLabel("Count").fill("3");
        label("Run label").fill("from the form");
        page.locator("#start-run").click();

        page.waitForURL("**/#/runs/*");
        assertThat(page.locator("g.node[data-state=Greet]")).hasAttribute("data-status", "succeeded");
        assertThat(page.locator("g.node[data-state=Count]")).hasAttribute("data-status", "succeeded");
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(page.locator("table.log")).containsText("FlowSucceeded");
        Browser.screenshot(page, "run-succeeded");
    }

    @Test
    void shouldCancelARunFromItsPageAndShowTheWaitingStateAsCurrent() {
        String flow = publish("scientist", WAIT, null, null);
        String run = start("scientist", flow, "to cancel");
        signIn("scientist", "#/runs/" + run);

        assertThat(page.locator("g.node[data-state=Nap]")).hasClass(java.util.regex.Pattern.compile(".*current.*"));
        page.onceDialog(dialog -> dialog.accept()); // "Cancel this run? …"
        page.locator("#cancel-run").click();
        assertThat(page.locator(".meta .badge")).hasText("ENDED");
        assertThat(page.locator("#cancel-run")).hasCount(0);
        Browser.screenshot(page, "run-cancelled");
    }

    @Test
    void shouldShowAViewerWithoutRightsNoButtons() {
        String flow = publish("scientist", WAIT, null, "\"run_monitors\":[\"scientist2\"]");
        String run = start("scientist", flow, "watched only " + UUID.randomUUID());
        signIn("scientist2", "#/runs/" + run);

        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
        assertThat(page.locator("#cancel-run")).hasCount(0);
        assertThat(page.locator("#resume-run")).hasCount(0);

        page.navigate(base + "#/runs?label=watched+only");
        assertThat(page.locator("tr[data-run='" + run + "']")).hasCount(1);
        assertThat(page.locator("tr[data-run='" + run + "'] input[type=checkbox]")).hasCount(0);
        assertThat(page.locator("#bulk-cancel")).hasCount(0);
        Browser.screenshot(page, "viewer-no-buttons");
    }

    @Test
    void shouldKeepFiltersThroughAReloadAndCancelEveryMatchingRunAfterConfirmingTheCount() {
        String batch = "batch-" + UUID.randomUUID().toString().substring(0, 8);
        String flow = publish("scientist", WAIT, null, null);
        List<String> runs = List.of(start("scientist", flow, batch), start("scientist", flow, batch), start("scientist", flow, batch));
        String other = start("scientist", flow, "not-" + batch.replace("-", ""));
        signIn("scientist", "#/runs");

        label("Label").fill(batch);
        label("ACTIVE").check();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Apply filters")).click();
        page.waitForURL(url -> url.contains("label=" + batch) && url.contains("status=ACTIVE"));
        assertThat(page.locator("tbody tr[data-run]")).hasCount(3);

        page.reload();
        assertThat(label("Label")).hasValue(batch);
        assertThat(label("ACTIVE")).isChecked();
        assertThat(page.locator("tbody tr[data-run]")).hasCount(3);
        Browser.screenshot(page, "runs-filtered");

        page.locator("#bulk-cancel").click();
        assertThat(page.locator("#bulk-title")).hasText("Cancel 3 run(s)?");
        Browser.screenshot(page, "bulk-cancel-confirm");
        page.locator("#bulk-confirm").click();
        assertThat(page.getByRole(AriaRole.STATUS)).containsText("Cancelled 3 run(s).");

        String token = Tokens.of("scientist");
        for (String run : runs) {
            given().header("Authorization", "Bearer " + token).when().get("/runs/" + run).then().statusCode(200)
                    .body("status", org.hamcrest.Matchers.equalTo("ENDED"));
        }
        given().header("Authorization", "Bearer " + token).when().get("/runs/" + other).then()
                .body("status", org.hamcrest.Matchers.equalTo("ACTIVE"));
    }

    @Test
    void shouldUpdateTheRunListLiveWhenARunStarts() {
        String label = "live-" + UUID.randomUUID().toString().substring(0, 8);
        String flow = publish("scientist", WAIT, null, null);
        signIn("scientist", "#/runs?label=" + label);
        assertThat(page.locator("tbody")).containsText("No runs match.");

        String run = start("scientist", flow, label);

        assertThat(page.locator("tr[data-run='" + run + "']")).hasCount(1);
    }

    @Test
    void shouldSignInAgainAndKeepThePageWhenTheTokenIsRefused() {
        String flow = publish("scientist", WAIT, null, null);
        signIn("scientist", "#/runs");
        // what an expired session looks like to the page: a token the engine refuses and a refresh token Keycloak refuses
        page.evaluate("() => sessionStorage.setItem('continuum.tokens', JSON.stringify("
                + "{access: 'x.e30.y', refresh: 'refused', expiresAt: Date.now() + 3600000}))");

        page.navigate(base + "#/flows/" + flow);

        assertThat(page.locator("main h1")).hasText(java.util.regex.Pattern.compile("ui test .*"));
        assertThat(page).hasURL(java.util.regex.Pattern.compile(".*#/flows/" + flow + "$"));
        assertThat(page.locator("#user")).hasText("scientist");
    }

    @Test
    void shouldSignOutWithOneClickSoThatOpeningTheAppAgainAsksToSignIn() {
        signIn("scientist", "#/runs");

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign out")).click();

        // no "Do you want to log out?" on the way: Keycloak ends the session and the signed-out app asks to sign in
        assertThat(page.locator("#username")).isVisible();
        assertThat(page.locator("#kc-logout")).hasCount(0);
        page.navigate(base + "#/runs");
        assertThat(page.locator("#username")).isVisible();
        assertThat(console).as("script errors").noneMatch(m -> m.startsWith("page error"));
    }

    @Test
    void shouldPinTheValidatorsErrorsOnTheGraphOfAMalformedFlow() {
        signIn("scientist", "#/flows/new");
        label("Definition (JSON)").fill("""
                {"StartAt":"First","States":{
                  "First":{"Type":"Pass","Next":"Nowhere"},
                  "Second":{"Type":"Pass","End":true}}}""");
        page.locator("#validate-flow").click();

        assertThat(page.locator("ul.problems")).containsText("Nowhere");
        assertThat(page.locator("g.node[data-state=First]")).hasClass(java.util.regex.Pattern.compile(".*invalid.*"));
        Browser.screenshot(page, "flow-invalid");
    }

    @Test
    void shouldPassAnAxeAccessibilityCheckOnTheMainPages() throws IOException {
        String flow = publish("scientist", GREET, GREET_SCHEMA, null);
        String run = start("scientist", publish("scientist", WAIT, null, null), "axe");
        signIn("scientist", "#/runs");
        String axe = axeSource();
        for (String hash : List.of("#/runs", "#/runs/" + run, "#/flows", "#/flows/" + flow, "#/flows/new")) {
            page.navigate(base + hash);
            page.locator("main h1").waitFor();
            page.waitForTimeout(300);
            page.addScriptTag(new Page.AddScriptTagOptions().setContent(axe));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> violations = (List<Map<String, Object>>) page.evaluate("""
                    async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations
                        .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))""");
            assertThat(violations).as("axe-core violations on " + hash).isEmpty();
        }
    }

    static String axeSource() throws IOException {
        try (InputStream in = WebUiBrowserTest.class.getResourceAsStream("/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js")) {
            assertThat(in).as("axe-core WebJar on the test classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
