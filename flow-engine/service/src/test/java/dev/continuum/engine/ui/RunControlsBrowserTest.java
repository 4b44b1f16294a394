package dev.continuum.engine.ui;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.SelectOption;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run page's groups and buttons in a real headless Chromium against the real engine, Keycloak and PostgreSQL: Map
 * iterations counted per status and expandable, redrive from a chosen state, release, the buttons only for those the
 * engine lets act (its user_actions), and the pages at tablet width — axe-clean and usable from the keyboard.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class RunControlsBrowserTest extends BrowserTest {

    /** A Map over {@code items} numbers whose iterator is one Pass state. */
    static String mapFlow(int items) {
        String list = IntStream.range(0, items).mapToObj(Integer::toString).collect(Collectors.joining(","));
        return """
                {"StartAt":"Make","States":{
                  "Make":{"Type":"Pass","Result":[%s],"ResultPath":"$.items","Next":"Fan"},
                  "Fan":{"Type":"Map","ItemsPath":"$.items","ResultPath":"$.done","End":true,
                    "Iterator":{"StartAt":"Work","States":{"Work":{"Type":"Pass","End":true}}}}}}""".formatted(list);
    }

    static final String SLOW_MAP = """
            {"StartAt":"Make","States":{
              "Make":{"Type":"Pass","Result":[1,2,3,4,5],"ResultPath":"$.items","Next":"Fan"},
              "Fan":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":2,"End":true,
              "Iterator":{"StartAt":"Nap","States":{"Nap":{"Type":"Wait","Seconds":3600,"End":true}}}}}}""";

    /** Fails unless its input has "ok": redriving from Check with {"ok": true} makes it succeed. */
    static final String CHECKED = """
            {"StartAt":"Check","States":{
              "Check":{"Type":"Choice","Choices":[{"Variable":"$.ok","IsPresent":true,"Next":"Done"}],"Default":"Boom"},
              "Done":{"Type":"Pass","End":true},
              "Boom":{"Type":"Fail","Error":"NotOk","Cause":"no ok in the input"}}}""";

    static String run(String flowId, String roles) {
        return as(Tokens.of("scientist")).body("{\"body\":{},\"label\":\"controls\"" + (roles.isEmpty() ? "" : "," + roles) + "}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(201).extract().path("run_id");
    }

    @Test
    void shouldGroupMapIterationsWithCountsPerStatusAndExpandTheIterator() {
        String done = run(WebUiBrowserTest.publish("scientist", mapFlow(30), null, null), "");
        String going = run(WebUiBrowserTest.publish("scientist", SLOW_MAP, null, null), "");
        signIn("scientist", "#/runs/" + done);

        assertThat(page.locator("li[data-group=Fan] .counts")).hasText("30 succeeded, 0 running, 0 failed, 0 pending");
        assertThat(page.locator("g.node[data-state=Fan]")).hasAttribute("aria-label", Pattern.compile(".*30 items: 30 succeeded.*"));
        assertThat(page.locator("g.node[data-state='Fan/Work']")).hasCount(0);
        assertThat(page.locator("#planner-status")).hasText("No placement planner is configured (continuum.ui.planner-url).");
        page.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Expand Fan")).click();
        assertThat(page.locator("g.node[data-state='Fan/Work']")).hasAttribute("aria-label", Pattern.compile(".*30 succeeded.*"));
        Browser.screenshot(page, "map-expanded");

        page.navigate(base + "#/runs/" + going);
        assertThat(page.locator("li[data-group=Fan] .counts")).hasText("0 succeeded, 2 running, 0 failed, 3 pending");
        assertThat(page.locator("g.node[data-state=Fan]")).hasAttribute("data-status", "running");
        Browser.screenshot(page, "map-running");
    }

    @Test
    void shouldRedriveAFailedRunFromAChosenStateWithEditedInput() {
        String run = run(WebUiBrowserTest.publish("scientist", CHECKED, null, null), "");
        signIn("scientist", "#/runs/" + run);
        assertThat(page.locator(".meta .badge")).hasText("FAILED");
        assertThat(page.locator("g.node[data-state=Done]")).hasAttribute("data-status", "pending");
        assertThat(page.locator("#cancel-run")).hasCount(0);

        page.locator("#redrive-run").click();
        assertThat(page.getByLabel("From state")).hasValue(""); // where it failed, unless chosen otherwise
        page.getByLabel("From state").selectOption(new SelectOption().setValue("Check"));
        page.getByLabel(Pattern.compile("^Input")).fill("{\"ok\": true}");
        Browser.screenshot(page, "redrive-form");
        page.locator("#redrive-confirm").click();

        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(page.locator("g.node[data-state=Done]")).hasAttribute("data-status", "succeeded");
        assertThat(page.locator("table.log")).containsText("FlowRedriven");
        assertThat(page.locator("#redrive-run")).hasCount(0);
        Browser.screenshot(page, "redriven");
    }

    @Test
    void shouldStartTheRedriveFormWithTheInputTheFailedStateHad() {
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", CHECKED, null, null), "prefill",
                "{\"sample\":\"S-17\"}");
        as(Tokens.of("scientist")).when().get("/runs/" + run).then().body("details.state_input.sample", org.hamcrest.Matchers.is("S-17"));
        signIn("scientist", "#/runs/" + run);
        assertThat(page.locator(".meta .badge")).hasText("FAILED");

        page.locator("#redrive-run").click();
        Locator input = page.getByLabel(Pattern.compile("^Input"));
        assertThat(input).hasValue(Pattern.compile("\"sample\": \"S-17\""));
        page.getByLabel("From state").selectOption(new SelectOption().setValue("Check"));
        input.fill(input.inputValue().replaceFirst("\\{", "{\"ok\": true,")); // the kept input, one field added
        page.locator("#redrive-confirm").click();

        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
    }

    @Test
    void shouldReleaseAFinishedRunAfterConfirming() {
        String run = run(WebUiBrowserTest.publish("scientist", mapFlow(2), null, null), "");
        signIn("scientist", "#/runs/" + run);
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");

        page.onceDialog(dialog -> dialog.accept());
        page.locator("#release-run").click();

        page.waitForURL(url -> url.endsWith("#/runs"));
        as(Tokens.of("scientist")).when().get("/runs/" + run).then().statusCode(404);
    }

    @Test
    void shouldShowAMonitorNoneOfTheButtonsOnAFailedOrActiveRun() {
        String roles = "\"run_monitors\":[\"scientist2\"]";
        String failed = run(WebUiBrowserTest.publish("scientist", CHECKED, null, null), roles);
        String active = run(WebUiBrowserTest.publish("scientist", SLOW_MAP, null, null), roles);
        signIn("scientist2", "#/runs/" + failed);

        assertThat(page.locator(".meta .badge")).hasText("FAILED");
        assertThat(page.locator(".actions button")).hasCount(0);
        page.navigate(base + "#/runs/" + active);
        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
        assertThat(page.locator("li[data-group=Fan] .counts")).containsText("2 running");
        assertThat(page.locator(".actions button")).hasCount(0);
        Browser.screenshot(page, "monitor-no-buttons");
    }

    @Test
    void shouldBeAxeCleanAndKeyboardUsableAtTabletAndDesktopWidths() throws IOException {
        String run = run(WebUiBrowserTest.publish("scientist", mapFlow(20), null, null), "");
        String axe = WebUiBrowserTest.axeSource();
        for (int[] size : new int[][]{{768, 1024}, {1280, 900}}) {
            open(size[0], size[1]);
            signIn("scientist", "#/runs?label=controls");
            assertThat(page.locator("tr[data-run='" + run + "']")).hasCount(1);
            checkAxe(axe, "runs at " + size[0]);
            assertThat(fitsTheWidth()).as("runs page without horizontal scrolling at " + size[0] + " px").isTrue();

            // the run list from the keyboard: Tab to the run's link, Enter opens it
            tabTo("a[href='#/runs/" + run + "']", 60);
            page.keyboard().press("Enter");
            page.waitForURL(url -> url.endsWith("#/runs/" + run));
            assertThat(page.locator("li[data-group=Fan] .counts")).hasText("20 succeeded, 0 running, 0 failed, 0 pending");

            // the graph from the keyboard: Tab to a state, Enter shows its details; the group expands from the keyboard too
            tabTo("g.node[data-state=Fan]", 40);
            page.keyboard().press("Enter");
            assertThat(page.locator("#state-title")).hasText("State Fan");
            tabTo("button.expand", 40);
            page.keyboard().press("Enter");
            assertThat(page.locator("g.node[data-state='Fan/Work']")).hasCount(1);
            checkAxe(axe, "run at " + size[0]);
            assertThat(fitsTheWidth()).as("run page without horizontal scrolling at " + size[0] + " px").isTrue();
            Browser.screenshot(page, "run-" + size[0] + "px");
        }
    }

    /** Presses Tab until the element matching {@code selector} has the focus, at most {@code presses} times. */
    void tabTo(String selector, int presses) {
        for (int i = 0; i < presses; i++) {
            page.keyboard().press("Tab");
            if ((Boolean) page.evaluate("s => document.activeElement?.matches(s) ?? false", selector)) {
                return;
            }
        }
        throw new AssertionError("Tab never reached " + selector + " in " + presses + " presses");
    }

    void checkAxe(String axe, String where) {
        page.waitForTimeout(300);
        page.addScriptTag(new Page.AddScriptTagOptions().setContent(axe));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> violations = (List<Map<String, Object>>) page.evaluate("""
                async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations
                    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))""");
        assertThat(violations).as("axe-core violations on " + where).isEmpty();
    }
}
