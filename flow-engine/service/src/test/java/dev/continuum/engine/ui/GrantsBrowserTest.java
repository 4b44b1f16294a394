package dev.continuum.engine.ui;

import com.microsoft.playwright.Page;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Consent;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * The offline grants page in a real Chromium against the real engine and Keycloak: a person's grant listed with the
 * run acting through it, revoked from the page after a confirmation naming that run, and a new grant given from the
 * page by consent at Keycloak. axe-core finds nothing on the page.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class GrantsBrowserTest extends BrowserTest {

    private static final String PERSON = "scientist";

    @AfterEach
    void revokeWhatTheTestGranted() {
        String token = Tokens.of(PERSON);
        List<String> active = as(token).when().get("/grants").then().statusCode(200).extract()
                .path("grants.findAll { it.status == 'ACTIVE' }.id");
        active.forEach(id -> as(token).when().delete("/grants/" + id).then().statusCode(204));
    }

    /** A run of the sleep provider started after the consent: it acts through the person's grant. */
    static String runThroughTheGrant(String grant) {
        String token = Tokens.of(PERSON);
        String flow = WebUiBrowserTest.publish(PERSON, RunActionsTest.nap(), null, null);
        String run = as(token).body("{\"body\":{},\"label\":\"napping on the grant\"}").when().post("/flows/" + flow + "/run")
                .then().statusCode(201).extract().path("run_id");
        await("run " + run + " acts through grant " + grant).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> as(token).when().get("/grants").then().statusCode(200).extract()
                        .<List<String>>path("grants.find { it.id == '" + grant + "' }.runs"), runs -> runs.contains(run));
        return run;
    }

    @Test
    void shouldListTheGrantWithItsRunAndRevokeItAfterAConfirmationNamingTheRun() throws IOException {
        String grant = Consent.give(PERSON);
        String run = runThroughTheGrant(grant);

        signIn(PERSON, "#/grants");
        var row = page.locator("#grants-active tr[data-grant='" + grant + "']");
        assertThat(row.locator(".badge").first()).hasText("ACTIVE");
        assertThat(row.locator("a[href='#/runs/" + run + "']")).hasText("napping on the grant");
        Browser.screenshot(page, "grants");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on the grants page").isEmpty();

        AtomicReference<String> asked = new AtomicReference<>();
        page.onceDialog(dialog -> {
            asked.set(dialog.message());
            dialog.accept();
        });
        row.locator("button.revoke").click();

        assertThat(page.locator("#grants-revoked tr[data-grant='" + grant + "']")).containsText("by " + PERSON);
        assertThat(page.locator("#grants-active tr[data-grant='" + grant + "']")).hasCount(0);
        assertThat(asked.get()).isEqualTo("Revoke this grant? These 1 runs will go INACTIVE at their next provider call: "
                + "napping on the grant.");
        as(Tokens.of(PERSON)).when().get("/grants").then()
                .body("grants.find { it.id == '" + grant + "' }.status", equalTo("REVOKED"));
        assertThat(Browser.axeViolations(page)).as("axe-core violations on the grants page after a revocation").isEmpty();
        as(Tokens.of(PERSON)).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }

    @Test
    void shouldGiveOfflineAccessFromThePageByConsentAtTheIdentityProvider() {
        signIn(PERSON, "#/grants");
        assertThat(page.locator("#no-grants")).isVisible();
        // the consent step says what the engine may do and until when, before the person gives it
        assertThat(page.locator("#grant-terms")).containsText("calls the providers those flows name with your identity");
        assertThat(page.locator("#grant-terms")).containsText("also while you are signed out");
        assertThat(page.locator("#grant-terms")).containsText("until you revoke it here");
        assertThat(page.locator("#grant-terms")).containsText("offline session maximum");

        Page consent = page.waitForPopup(() -> page.locator("#grant-offline").click());
        consent.waitForURL(url -> url.contains("/grants/consent/callback"));

        assertThat(page.locator("#grants-active tbody tr")).hasCount(1);
        assertThat(page.locator(".notice")).hasText("Offline access granted.");
        List<String> active = as(Tokens.of(PERSON)).when().get("/grants").then().statusCode(200).extract()
                .path("grants.findAll { it.status == 'ACTIVE' }.id");
        assertThat(page.locator("#grants-active tr[data-grant='" + active.get(0) + "']")).hasCount(1);
    }
}
