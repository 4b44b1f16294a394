package dev.continuum.engine.ui;

import com.microsoft.playwright.Page;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/** Flow versions in a real Chromium: the version a run uses on its page, and what changed between two versions. */
@QuarkusTest
@TestProfile(AuthOn.class)
class FlowVersionsBrowserTest extends BrowserTest {

    static String greeting(String word) {
        return "{\"StartAt\":\"Hello\",\"States\":{\"Hello\":{\"Type\":\"Pass\",\"Result\":{\"greeting\":\"" + word
                + "\"},\"ResultPath\":\"$.out\",\"End\":true}}}";
    }

    @Test
    void shouldShowTheRunsFlowVersionAndTheDiffBetweenTwoVersions() throws IOException {
        String token = Tokens.of("scientist");
        String flow = as(token).body("{\"title\":\"greeter\",\"definition\":" + greeting("one") + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        as(token).body("{\"title\":\"greeter, renamed\",\"definition\":" + greeting("two") + "}")
                .when().put("/flows/" + flow).then().statusCode(200);
        String run = as(token).body("{\"body\":{},\"flow_version\":1}").when().post("/flows/" + flow + "/run")
                .then().statusCode(201).extract().path("run_id");

        signIn("scientist", "#/runs/" + run);
        assertThat(page.locator(".meta .flow-version")).hasText("version 1");

        page.navigate(base + "#/flows/" + flow);
        assertThat(page.locator("table.versions tbody tr")).hasCount(2);
        assertThat(page.locator("tr[data-version='2']")).containsText("Changed definition, title");
        assertThat(page.locator("tr[data-version='2']")).containsText("scientist");
        assertThat(page.locator("pre.diff .diff-removed")).containsText(new String[]{"\"title\": \"greeter\"", "\"greeting\": \"one\""});
        assertThat(page.locator("pre.diff .diff-added")).containsText(new String[]{"\"title\": \"greeter, renamed\"", "\"greeting\": \"two\""});
        Browser.screenshot(page, "flow-version-diff");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on the flow page with a diff").isEmpty();

        page.getByLabel("Compare version", new Page.GetByLabelOptions().setExact(true)).selectOption("2");
        assertThat(page.locator(".diff-count")).containsText("no differences");
        assertThat(page.locator("pre.diff .diff-added")).hasCount(0);
    }
}
