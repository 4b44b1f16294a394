package dev.continuum.engine.ui;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flow's start form as a scientist fills it (issue 37), in a real Chromium against the real engine, Keycloak and
 * PostgreSQL: the engine's own field errors stand under the field their pointer names, in words, not below the form
 * with a pointer; an object's declared properties are fields of their own (a JSON box only for what the generator
 * cannot draw).
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class StartFormBrowserTest extends BrowserTest {

    static final String PASS = "{\"StartAt\":\"Keep\",\"States\":{\"Keep\":{\"Type\":\"Pass\",\"End\":true}}}";

    /** sample: a pattern with an example; dose: a whole number only the engine checks is a multiple of 5. */
    static final String FLAT = """
            {"type":"object","required":["sample","dose"],"properties":{
              "sample":{"type":"string","title":"Sample","pattern":"^S-[0-9]+$","examples":["S-17"]},
              "dose":{"type":"integer","title":"Dose","minimum":1,"multipleOf":5}}}""";

    /** source: an object of two fields, one of which only the engine checks; extra: an object it cannot draw. */
    static final String NESTED = """
            {"type":"object","required":["source"],"properties":{
              "source":{"type":"object","title":"Source","required":["path"],"properties":{
                "path":{"type":"string","title":"Path","pattern":"^/","examples":["/data/raw"]},
                "copies":{"type":"integer","title":"Copies","multipleOf":2}}},
              "extra":{"type":"object","title":"Extra settings"}}}""";

    @Test
    void shouldShowTheEnginesFieldErrorsUnderTheirFieldsInWords() throws IOException {
        String flow = WebUiBrowserTest.publish("scientist", PASS, FLAT, null);
        signIn("scientist", "#/flows/" + flow);
        var form = page.locator("form.start-form");

        form.getByLabel("Sample").fill("17");
        assertThat(page.locator("#field-sample-error")).hasText("sample must match the pattern ^S-[0-9]+$ (for example S-17).");
        form.getByLabel("Sample").fill("S-17");
        form.getByLabel("Dose").fill("7");
        page.locator("#start-run").click();

        assertThat(page.locator("#field-dose-error")).hasText("must be multiple of 5.");
        assertThat(page.locator("form.start-form")).not().containsText("/body");
        Browser.screenshot(page, "start-form-engine-error");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a start form with the engine's errors").isEmpty();

        form.getByLabel("Dose").fill("10");
        page.locator("#start-run").click();
        page.waitForURL("**/#/runs/*");
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        assertThat(console).as("script errors").noneMatch(m -> m.startsWith("page error"));
    }

    @Test
    void shouldDrawAnObjectsPropertiesAsFieldsOfTheirOwn() throws IOException {
        String flow = WebUiBrowserTest.publish("scientist", PASS, NESTED, null);
        signIn("scientist", "#/flows/" + flow);
        var source = page.locator("form.start-form fieldset[data-field=source]");

        assertThat(source.locator("legend")).containsText("Source");
        source.getByLabel("Path").fill("data");
        assertThat(page.locator("#field-source-path-error")).hasText("source.path must match the pattern ^/ (for example /data/raw).");
        assertThat(page.locator("textarea#field-extra")).isVisible(); // no properties declared: typed as JSON
        source.getByLabel("Path").fill("/data/raw");
        source.getByLabel("Copies").fill("3");
        page.locator("#start-run").click();
        assertThat(page.locator("#field-source-copies-error")).hasText("must be multiple of 2.");
        Browser.screenshot(page, "start-form-nested");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a start form with nested fields").isEmpty();

        source.getByLabel("Copies").fill("4");
        page.locator("#field-extra").fill("{\"verbose\": true}");
        page.locator("#start-run").click();
        page.waitForURL("**/#/runs/*");
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
        String run = page.locator("#run-id").textContent();
        as(Tokens.of("scientist")).when().get("/runs/" + run).then().statusCode(200)
                .body("details.output.source.path", org.hamcrest.Matchers.equalTo("/data/raw"))
                .body("details.output.source.copies", org.hamcrest.Matchers.equalTo(4))
                .body("details.output.extra.verbose", org.hamcrest.Matchers.equalTo(true));
        assertThat(console).as("script errors").noneMatch(m -> m.startsWith("page error"));
    }
}
