package dev.continuum.engine.ui;

import dev.continuum.engine.support.AuthOn;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run page as a scientist watching their run, in a real Chromium against the real engine, Keycloak and PostgreSQL
 * (issue 37): every step shows as it happens while the run is ACTIVE, not only its start and its end; a failed run
 * says why at the top in words, its cause as a document wrapped to the page; the run id is on the page and in the
 * list, with when each run ended and how long it took.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class RunPageAsScientistBrowserTest extends BrowserTest {

    /** The engine's clock: tests before this one may have moved it ahead of the browser's. */
    @jakarta.inject.Inject
    dev.continuum.engine.support.TestClock engineClock;

    /** Waits 3 s, maps three items of 2 s each (two at a time), then holds for an hour: ACTIVE all the test long. */
    static final String STEPS = """
            {"StartAt":"One","States":{
              "One":{"Type":"Wait","Seconds":3,"Next":"Make"},
              "Make":{"Type":"Pass","Result":[1,2,3],"ResultPath":"$.items","Next":"Fan"},
              "Fan":{"Type":"Map","ItemsPath":"$.items","ResultPath":"$.done","MaxConcurrency":2,"Next":"Hold",
                "Iterator":{"StartAt":"Nap","States":{"Nap":{"Type":"Wait","Seconds":2,"End":true}}}},
              "Hold":{"Type":"Wait","Seconds":3600,"End":true}}}""";

    /** How long STEPS take to reach Hold, with room for a slow machine. */
    static final double STEPS_TAKE = 15_000;

    @Test
    void shouldShowEveryStepOfAnActiveRunAsItHappens() {
        String flow = WebUiBrowserTest.publish("scientist", STEPS, null, null);
        signIn("scientist", "#/runs");
        String run = WebUiBrowserTest.start("scientist", flow, "live");
        page.navigate(base + "#/runs/" + run);
        assertThat(page.locator("g.node[data-state=One]")).hasAttribute("data-status", "running");
        assertThat(page.locator("g.node[data-state=Hold]")).hasAttribute("data-status", "pending");

        // no reload: the live stream alone brings the Map's items and the state after it
        assertThat(page.locator("li[data-group=Fan] .counts")).hasText("3 succeeded, 0 running, 0 failed, 0 pending",
                new LocatorAssertions.HasTextOptions().setTimeout(STEPS_TAKE));
        assertThat(page.locator("g.node[data-state=Hold]")).hasAttribute("data-status", "running");
        assertThat(page.locator("table.log")).containsText("Hold");
        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
    }

    @Test
    void shouldShowTheInputAnActiveRunStartedWith() {
        String flow = WebUiBrowserTest.publish("scientist", HOLD_THEN_PARALLEL, null, null);
        String run = WebUiBrowserTest.start("scientist", flow, "with-input", "{\"sample\":\"S-17\",\"dose\":3}");
        signIn("scientist", "#/runs/" + run);

        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
        assertThat(page.locator("#run-input pre")).containsText("\"sample\": \"S-17\"");
        assertThat(page.locator("#run-input pre")).containsText("\"dose\": 3");
    }

    /** Fails in Boom with a cause that is JSON, as an action provider's answer is. */
    static final String FAILS = """
            {"StartAt":"Measure","States":{
              "Measure":{"Type":"Pass","Next":"Boom"},
              "Boom":{"Type":"Fail","Error":"DetectorOffline",
                "Cause":"{\\"detector\\":\\"d7\\",\\"reason\\":\\"no signal from the detector for 300 seconds while the beam was on, check the cabling\\"}"}}}""";

    @Test
    void shouldSayWhyARunFailedAndShowItsIdAndHowLongItTook() {
        String flow = WebUiBrowserTest.publish("scientist", FAILS, null, null);
        String run = WebUiBrowserTest.start("scientist", flow, "why-failed");
        open(768, 1024);
        signIn("scientist", "#/runs/" + run);

        assertThat(page.locator("#run-failure p")).hasText("Failed in state Boom with DetectorOffline.");
        assertThat(page.locator("#run-failure pre")).containsText("\"reason\": \"no signal from the detector");
        assertThat((Boolean) page.locator("#run-failure pre").evaluate("pre => pre.scrollWidth <= pre.clientWidth"))
                .as("the cause wraps inside its box, not cut off at its edge").isTrue();
        assertThat(page.locator("#run-id")).hasText(run);
        assertThat(page.locator(".meta")).containsText("took ");

        page.navigate(base + "#/runs?label=why-failed");
        Locator row = page.locator("tr[data-run='" + run + "']");
        assertThat(row.locator("code.run-id")).hasText(run);
        assertThat(row.locator("td.ended")).containsText(Pattern.compile("took (under 1|\\d+) s"));
        assertThat(fitsTheWidth()).as("runs page without horizontal scrolling at 768 px").isTrue();
        Browser.screenshot(page, "failed-run-list");
    }

    /** Holds, then runs two branches: the Parallel is not reached while the test looks. */
    static final String HOLD_THEN_PARALLEL = """
            {"StartAt":"Hold","States":{
              "Hold":{"Type":"Wait","Seconds":3600,"Next":"Both"},
              "Both":{"Type":"Parallel","End":true,"Branches":[
                {"StartAt":"Left","States":{"Left":{"Type":"Pass","End":true}}},
                {"StartAt":"Right","States":{"Right":{"Type":"Pass","End":true}}}]}}}""";

    @Test
    void shouldCountAParallelsBranchesBeforeItStartsAndAskForNothingThatIsNotThere() {
        List<String> failed = new CopyOnWriteArrayList<>();
        page.onResponse(response -> {
            if (response.status() >= 400) {
                failed.add(response.status() + " " + response.url());
            }
        });
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", HOLD_THEN_PARALLEL, null, null), "parallel");
        signIn("scientist", "#/runs/" + run);

        assertThat(page.locator("li[data-group=Both]")).containsText("(Parallel, 2 branches)");
        assertThat(page.locator("li[data-group=Both] .counts")).hasText("0 succeeded, 0 running, 0 failed, 2 pending");
        assertThat(page.locator("g.node[data-state=Both] text.type")).hasText("Parallel × 2");
        assertThat(failed).as("nothing the pages ask for is missing (a favicon included)").isEmpty();
    }

    @Test
    void shouldCountTheItemsACancelStoppedAsStoppedNotRunningOrPending() {
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", RunControlsBrowserTest.SLOW_MAP, null, null), "cancelled-map");
        signIn("scientist", "#/runs/" + run);
        assertThat(page.locator("li[data-group=Fan] .counts")).hasText("0 succeeded, 2 running, 0 failed, 3 pending");

        page.onDialog(dialog -> dialog.accept());
        page.locator("#cancel-run").click();

        assertThat(page.locator(".meta .badge")).hasText("ENDED");
        assertThat(page.locator("li[data-group=Fan] .counts")).hasText("0 succeeded, 0 running, 0 failed, 3 pending, 2 stopped");
        assertThat(page.locator("g.node[data-state=Fan] rect.bar-running")).hasAttribute("width", "0");
        assertThat(page.locator("g.node[data-state=Fan] rect.bar-stopped")).not().hasAttribute("width", "0");
    }

    @Test
    void shouldSayARunYouMayNotSeeIsNotThereWithoutLoadingForever() {
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", FAILS, null, null), "not-yours");
        signIn("scientist2", "#/runs/" + run);

        assertThat(page.getByRole(AriaRole.ALERT)).hasText("No such run, or you may not see it.");
        assertThat(page.getByText("Loading…")).hasCount(0);
    }

    @Test
    void shouldNameDeletingAFinishedRunAndAskBeforeDeletingOrCancelling() {
        String done = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", FAILS, null, null), "delete-me");
        String going = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", HOLD_THEN_PARALLEL, null, null), "keep-going");
        signIn("scientist", "#/runs/" + done);
        List<String> asked = new CopyOnWriteArrayList<>();
        page.onDialog(dialog -> {
            asked.add(dialog.message());
            dialog.dismiss();
        });

        assertThat(page.locator("#release-run")).hasText("Delete run…");
        page.locator("#release-run").click();
        as(Tokens.of("scientist")).when().get("/runs/" + done).then().statusCode(200); // kept: the question was answered no
        page.navigate(base + "#/runs/" + going);
        page.locator("#cancel-run").click();
        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
        assertThat(asked).hasSize(2);
        assertThat(asked.get(0)).startsWith("Delete this run? Its record and event log are deleted for good");
        assertThat(asked.get(1)).startsWith("Cancel this run?");
        as(Tokens.of("scientist")).when().get("/runs/" + going).then().statusCode(200).body("status", org.hamcrest.Matchers.is("ACTIVE"));
    }

    /** Waits 2 s, then holds for an hour: the timeline's second bar runs all the test long. */
    static final String PREPARE_THEN_HOLD = """
            {"StartAt":"Prepare","States":{
              "Prepare":{"Type":"Wait","Seconds":2,"Next":"Hold"},
              "Hold":{"Type":"Wait","Seconds":3600,"End":true}}}""";

    @Test
    void shouldGrowARunningStatesBarAgainstATimeAxis() {
        // the engine's clock ten minutes ahead of the browser's (earlier tests in this JVM moved it; so may a
        // machine's clock): the bar still grows from the state's start on the engine's clock (CI of 2026-12-07 saw
        // "under 1 s, running" for good)
        engineClock.advance(java.time.Duration.ofMinutes(10));
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", PREPARE_THEN_HOLD, null, null), "growing");
        signIn("scientist", "#/runs/" + run);
        Locator hold = page.locator("continuum-timeline li[data-state=Hold]");
        assertThat(hold).hasAttribute("data-status", "running", new LocatorAssertions.HasAttributeOptions().setTimeout(STEPS_TAKE));
        assertThat(page.locator("continuum-timeline .tl-tick").first()).hasText("0 s");

        String tookBefore = hold.locator(".tl-time").textContent();
        double widthBefore = hold.locator(".tl-bar").boundingBox().width;
        page.waitForTimeout(3000); // the page is not reloaded and no event comes: only time passes

        assertThat(hold.locator(".tl-time")).not().hasText(tookBefore);
        assertThat(hold.locator(".tl-time")).containsText("running");
        assertThat(hold.locator(".tl-bar").boundingBox().width).as("the running bar grows").isGreaterThan(widthBefore + 2);
        assertThat(fitsTheWidth()).isTrue();
    }

    @Test
    void shouldSayInTheLogRowWhyAnActionFailed() throws java.io.IOException {
        String child = WebUiBrowserTest.publish("scientist", """
                {"StartAt":"Boom","States":{"Boom":{"Type":"Fail","Error":"CalibrationMissing","Cause":"no calibration for detector 7"}}}""",
                null, null);
        String run = WebUiBrowserTest.start("scientist",
                WebUiBrowserTest.publish("scientist", ChildRunsAndInputsBrowserTest.parentCalling(child), null, null), "child fails");
        Tokens.awaitStatus(Tokens.of("scientist"), run, "FAILED");
        signIn("scientist", "#/runs/" + run);

        Locator row = page.locator("table.log tbody tr:has(td:nth-child(2):text-is('ActionFailed'))");
        assertThat(row).containsText("CalibrationMissing");
        assertThat(row).containsText("no calibration for detector 7");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a failed run's page").isEmpty();
    }

    @Test
    void shouldTellAnAdministratorWhichRunsTheyMaySee() throws java.io.IOException {
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", FAILS, null, null), "not the admin's");
        signIn("admin", "#/runs");

        assertThat(page.locator("#run-visibility")).containsText("Being a Continuum administrator (continuum-admin) shows no one else's runs");
        assertThat(page.locator("tr[data-run='" + run + "']")).hasCount(0);
        assertThat(Browser.axeViolations(page)).as("axe-core violations on the admin's runs page").isEmpty();
        page.navigate(base + "#/runs/" + run);
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("No such run, or you may not see it.");
        assertThat(page.locator("#run-visibility")).containsText("ask its owner to add you as a run monitor");
        as(Tokens.of("admin")).when().get("/runs/" + run).then().statusCode(404); // the engine's rule, which the page states
    }

    @Test
    void shouldComputeATransfersTimeLeftFromTheRateItShows() {
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", WebUiBrowserTest.WAIT, null, null), "controlled transfer");
        long total = 100L * TransferProviderRunning.MIB;
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        // the transfer's progress, as this test decides it: 4 MiB more at each read, steadily; the provider's own rate
        // falls and its time left rises, figures that disagree with each other and with the progress
        page.route("**/runs/" + run + "/actions", route -> {
            int n = reads.getAndIncrement();
            long done = Math.min(total - TransferProviderRunning.MIB, n * 4L * TransferProviderRunning.MIB);
            route.fulfill(new com.microsoft.playwright.Route.FulfillOptions().setStatus(200).setContentType("application/json")
                    .setBody("""
                            {"actions":[{"state_name":"Copy","action_url":"http://127.0.0.1:1/providers/transfer/transfer",
                              "action_id":"controlled","status":"ACTIVE","display_status":"copying",
                              "details":{"bytes_total":%d,"bytes_transferred":%d,"rate_bytes_per_second":%d,"eta_seconds":%d}}]}"""
                            .formatted(total, done, TransferProviderRunning.MIB / (n + 1), 100 * (n + 1))));
        });
        signIn("scientist", "#/transfers");
        Locator eta = page.locator("tr[data-action=controlled] td.eta");

        List<Integer> seen = new java.util.ArrayList<>();
        for (int read = 3; read <= 6; read++) {
            int wanted = read;
            page.waitForCondition(() -> reads.get() > wanted, new com.microsoft.playwright.Page.WaitForConditionOptions().setTimeout(30_000));
            page.waitForTimeout(300); // the page draws what it read
            seen.add(Integer.parseInt(eta.getAttribute("data-seconds")));
        }

        assertThat(seen).as("time left at a steady rate: at most 96 MiB at about 2 MiB/s, falling with each read").allMatch(s -> s < 60);
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i)).as("time left " + seen + " (a second's rounding aside)").isLessThanOrEqualTo(seen.get(i - 1) + 1);
        }
        assertThat(page.locator("tr[data-action=controlled] td.rate")).containsText("MiB/s");
    }

    @Test
    void shouldKeepTheRunPageWithinA768PixelWidthWhenItsJsonIsWide() {
        String wide = "/data/" + "very-long-directory-name-without-any-space-".repeat(12) + "sample.h5";
        String run = WebUiBrowserTest.start("scientist", WebUiBrowserTest.publish("scientist", HOLD_THEN_PARALLEL, null, null),
                "wide input", "{\"path\":\"" + wide + "\",\"note\":\"a long note " + "with words ".repeat(40) + "\"}");
        open(768, 1024);
        signIn("scientist", "#/runs/" + run);

        assertThat(page.locator("#run-input pre")).containsText("sample.h5");
        assertThat(fitsTheWidth()).as("run page without horizontal scrolling at 768 px").isTrue();
        assertThat((Boolean) page.locator("#run-input pre").evaluate("pre => pre.getBoundingClientRect().right <= document.documentElement.clientWidth"))
                .as("the input's JSON block scrolls inside itself, within the page").isTrue();
        Browser.screenshot(page, "wide-input-768");
    }

    @Test
    void shouldTellOnTheTriggersPageHowToCreateOne() {
        signIn("scientist", "#/triggers");

        assertThat(page.locator("#create-trigger")).containsText("continuum trigger create trigger.json");
        assertThat(page.locator("#create-trigger a")).hasAttribute("href", "/q/swagger-ui");
    }
}
