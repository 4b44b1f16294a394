package dev.continuum.engine.ui;

import com.microsoft.playwright.Page;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The triggers and simulator pages in a real headless Chromium against the real engine, Keycloak and PostgreSQL
 * (same set-up as {@link WebUiBrowserTest}): what a user sees of a trigger's events, pausing and resuming it, and a
 * real simulator report opened from a file.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class OpsPagesBrowserTest extends BrowserTest {

    /** An api trigger of scientist's, scientist2 a viewer, with one event of each outcome; the last one rejected. */
    static String triggerWithEveryOutcome(String title) {
        String flow = WebUiBrowserTest.publish("scientist", WebUiBrowserTest.WAIT, null, null);
        String token = Tokens.of("scientist");
        String trigger = as(token).body("""
                        {"title":"%s","source":{"type":"api"},"flow_id":"%s","filter":"size > 100",
                         "input_template":{"path.$":"$.path"},"viewers":["scientist2"]}""".formatted(title, flow))
                .when().post("/triggers").then().statusCode(201).extract().path("id");
        deliver(token, trigger, "scan-1", "{\"path\":\"/data/scan-1.tif\",\"size\":500}", "started");
        deliver(token, trigger, "scan-1", "{\"path\":\"/data/scan-1.tif\",\"size\":500}", "duplicate");
        deliver(token, trigger, "scan-2", "{\"path\":\"/data/scan-2.tif\",\"size\":5}", "filtered");
        deliver(token, trigger, "scan-3", "{\"size\":900}", "rejected");
        return trigger;
    }

    static void deliver(String token, String trigger, String key, String event, String outcome) {
        as(token).body("{\"dedup_key\":\"" + key + "\",\"event\":" + event + "}")
                .when().post("/triggers/" + trigger + "/events").then().statusCode(202).body("outcome", equalTo(outcome));
    }

    @Test
    void shouldShowATriggersEventOutcomesAndLetItsOwnerPauseAndResumeIt() {
        String title = "microscope " + UUID.randomUUID().toString().substring(0, 6);
        String trigger = triggerWithEveryOutcome(title);
        signIn("scientist", "#/triggers");

        var row = page.locator("tr[data-trigger='" + trigger + "']");
        assertThat(row).containsText(title);
        assertThat(row).containsText("failing");
        assertThat(row).containsText("1 rejected in a row");
        row.getByRole(com.microsoft.playwright.options.AriaRole.LINK, new com.microsoft.playwright.Locator.GetByRoleOptions().setName(title)).click();

        assertThat(page.locator("main h1")).hasText(title);
        var events = page.locator("table.events tbody tr[data-event]");
        assertThat(events).hasCount(4);
        assertThat(page.locator("tr[data-outcome=rejected]")).containsText(Pattern.compile("rejected — .*path"));
        assertThat(page.locator("tr[data-outcome=filtered]")).containsText("filtered out");
        assertThat(page.locator("tr[data-outcome=duplicate]")).containsText("duplicate of an earlier event");
        var started = page.locator("tr[data-outcome=started]");
        assertThat(started).containsText("started a run");
        Browser.screenshot(page, "trigger-events");

        page.locator("button.steer").click();
        assertThat(page.locator(".meta .badge").first()).hasText("paused");
        as(Tokens.of("scientist")).when().get("/triggers/" + trigger).then().body("status", equalTo("paused"));
        page.locator("button.steer").click();
        assertThat(page.locator(".meta .badge").first()).not().hasText("paused");
        as(Tokens.of("scientist")).when().get("/triggers/" + trigger).then().body("status", org.hamcrest.Matchers.not("paused"));

        started.locator("a").click();
        page.waitForURL("**/#/runs/*");
        assertThat(page.locator(".meta .badge")).hasText("ACTIVE");
    }

    @Test
    void shouldShowAViewerATriggerWithoutPauseOrResume() {
        String title = "viewed " + UUID.randomUUID().toString().substring(0, 6);
        String trigger = triggerWithEveryOutcome(title);
        signIn("scientist2", "#/triggers");

        assertThat(page.locator("tr[data-trigger='" + trigger + "']")).containsText("viewer");
        assertThat(page.locator("tr[data-trigger='" + trigger + "'] button")).hasCount(0);
        page.navigate(base + "#/triggers/" + trigger);
        assertThat(page.locator("table.events tbody tr[data-event]")).hasCount(4);
        assertThat(page.locator("button.steer")).hasCount(0);
    }

    @Test
    void shouldCompareThePoliciesOfASimulatorReportInPlots() throws URISyntaxException {
        signIn("scientist", "#/simulator");
        page.locator("#report-files").setInputFiles(simulatorReport());

        // the report (placement's simulate, 200 synthetic jobs, policies fifo, sjf and las) has three policies
        assertThat(page.locator("table.sim-metrics tbody tr")).hasCount(3);
        assertThat(page.locator("tr[data-policy=sjf]")).containsText("200");
        assertThat(page.locator("figure figcaption")).containsText(new String[] {
                "GPU utilisation over time", "Queue length over time", "Job completion time (CDF)"});
        for (int i = 0; i < 3; i++) {
            assertThat(page.locator("continuum-chart").nth(i)).hasAttribute("data-lines", "3");
            assertThat(page.locator("continuum-chart").nth(i).locator("canvas")).hasCount(1);
        }
        assertThat(page.locator("continuum-chart canvas").first()).hasAttribute("aria-label", Pattern.compile(
                "GPU utilisation over time \\(x axis: hours since the trace started from 0\\.00 to .*\\): fifo from .*"));
        assertThat(sameFormatInEachColumn()).as("columns whose numbers do not share one format").isEmpty();
        Browser.screenshot(page, "simulator-report");
    }

    @Test
    void shouldPlotAFillReportOverArrivedDemandAlikeFromItsJsonAndItsCsvWithOneNumberFormatPerColumn()
            throws URISyntaxException {
        signIn("scientist", "#/simulator");
        // a real `simulate --fill` report (openb-fill fixture of placement/simulator, fgd, bestfit-weighted and
        // worstfit, 3 repetitions): x is the arrived GPU demand, 1 to 120 % of the cluster's GPUs, in both formats
        Path dir = Path.of(OpsPagesBrowserTest.class.getResource("/ui/simulator-fill/metrics.json").toURI()).getParent();
        page.locator("#report-files").setInputFiles(dir.resolve("metrics.json"));
        assertThat(page.locator("table.sim-metrics tbody tr")).hasCount(3);
        List<String> captions = page.locator("figure figcaption").allTextContents();
        List<String> summaries = chartSummaries();
        List<String> table = page.locator("table.sim-metrics").allInnerTexts();
        assertThat(summaries).hasSize(6).allMatch(
                l -> l.matches(".*\\(x axis: arrived GPU demand \\(% of GPUs\\) from 1\\.00 to 120\\): fgd from .*"), "over 1-120 %");
        assertThat(sameFormatInEachColumn()).as("columns whose numbers do not share one format").isEmpty();

        page.locator("#report-files").setInputFiles(new Path[] {dir.resolve("metrics.csv"), dir.resolve("series.csv")});
        assertThat(page.locator("main h2")).containsText("metrics.csv, series.csv");
        assertThat(page.locator("figure figcaption")).hasText(captions.toArray(String[]::new));
        assertThat(chartSummaries()).isEqualTo(summaries);
        assertThat(page.locator("table.sim-metrics").allInnerTexts()).isEqualTo(table);
        Browser.screenshot(page, "simulator-fill-report");
    }

    private List<String> chartSummaries() {
        return page.locator("continuum-chart canvas").all().stream().map(c -> c.getAttribute("aria-label")).toList();
    }

    /** The columns of the metrics table whose numbers differ in format: grouping, or count of decimals. */
    private List<String> sameFormatInEachColumn() {
        @SuppressWarnings("unchecked")
        List<List<String>> columns = (List<List<String>>) page.evaluate("""
                () => [...document.querySelectorAll('table.sim-metrics thead th')].slice(1).map((th, i) =>
                  [th.textContent, ...[...document.querySelectorAll('table.sim-metrics tbody tr')]
                    .map(tr => tr.querySelectorAll('td')[i].textContent)])""");
        Pattern grouped = Pattern.compile("-?\\d{1,3}(,\\d{3})*(\\.(\\d+))?");
        return columns.stream().filter(col -> col.stream().skip(1).map(cell -> {
            var m = grouped.matcher(cell);
            return m.matches() ? String.valueOf(m.group(3) == null ? 0 : m.group(3).length()) : "not a grouped number: " + cell;
        }).distinct().count() > 1 || col.stream().skip(1).anyMatch(cell -> !grouped.matcher(cell).matches()))
                .map(col -> col.getFirst() + " " + col.subList(1, col.size())).toList();
    }

    @Test
    void shouldSayWhyAFileIsNotASimulatorReport() throws IOException {
        signIn("scientist", "#/simulator");
        Path bad = Path.of("target", "not-a-report.json");
        java.nio.file.Files.writeString(bad, "{\"policy\": \"fifo\"}");
        page.locator("#report-files").setInputFiles(bad);
        assertThat(page.getByRole(com.microsoft.playwright.options.AriaRole.ALERT)).containsText("metrics.json should hold an array");
    }

    @Test
    void shouldShowARealTransfersProgressRateAndTimeLeftUntilItIsDone() throws Exception {
        try (TransferProviderRunning provider = new TransferProviderRunning(8L * TransferProviderRunning.MIB)) {
            provider.sourceFile("big.bin", 96L * TransferProviderRunning.MIB); // about 12 s at 8 MiB/s
            String flow = WebUiBrowserTest.publish("scientist", """
                    {"StartAt":"Move","States":{"Move":{"Type":"Action","ActionUrl":"%s","WaitTime":600,"ResultPath":"$.moved",
                     "Parameters":{"source_endpoint_id":"src","destination_endpoint_id":"dst",
                                   "DATA":[{"source_path":"/big.bin","destination_path":"/big.bin"}]},"End":true}}}"""
                    .formatted(provider.transferUrl()), null, null);
            String run = WebUiBrowserTest.start("scientist", flow, "move big.bin");
            signIn("scientist", "#/transfers");

            var row = page.locator("table.transfers tr[data-status=ACTIVE]").filter(
                    new com.microsoft.playwright.Locator.FilterOptions().setHasText("move big.bin"));
            assertThat(row.locator(".rate")).containsText("MiB/s", new com.microsoft.playwright.assertions.LocatorAssertions
                    .ContainsTextOptions().setTimeout(30_000));
            assertThat(row.locator(".eta")).containsText(" s");
            assertThat(row.locator(".bytes")).containsText("of 96.0 MiB");
            assertThat(row.locator("td").nth(1)).hasText("Move");
            double first = ((Number) row.locator("progress").evaluate("p => p.value")).doubleValue();
            assertThat(first).isBetween(0.0, 100.0);
            Browser.screenshot(page, "transfer-progress");
            page.waitForCondition(() -> ((Number) row.locator("progress").evaluate("p => p.value")).doubleValue() > first,
                    new Page.WaitForConditionOptions().setTimeout(20_000));

            assertThat(row).hasCount(0, new com.microsoft.playwright.assertions.LocatorAssertions.HasCountOptions().setTimeout(60_000));
            var finished = page.locator("table.finished tr[data-status=SUCCEEDED]").filter(
                    new com.microsoft.playwright.Locator.FilterOptions().setHasText("move big.bin"));
            assertThat(finished).hasCount(1, // listed with its outcome once it is no longer under way
                    new com.microsoft.playwright.assertions.LocatorAssertions.HasCountOptions().setTimeout(20_000));
            assertThat(finished.locator(".bytes")).hasText("96.0 MiB of 96.0 MiB");
            as(Tokens.of("scientist")).when().get("/runs/" + run).then().body("status", equalTo("SUCCEEDED"));
            assertThat(java.nio.file.Files.size(provider.root.resolve("dst/big.bin"))).isEqualTo(96L * TransferProviderRunning.MIB);
        }
    }

    @Test
    void shouldSayOnTheDevicesPageThatNoPlannerIsConfiguredAndOfferItOnlyToOperators() {
        as(Tokens.of("scientist")).when().get("/ops/planner/inventory").then().statusCode(503)
                .body("title", equalTo("No planner configured"));
        signIn("scientist", "#/devices");
        // the navigation hides the page from a scientist; typing its URL answers as a hidden object would
        assertThat(page.locator("#not-offered")).hasText("No such page, or you may not see it.");
        assertThat(page.locator("#not-configured")).hasCount(0);
        var nav = page.getByRole(com.microsoft.playwright.options.AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"));
        assertThat(nav.getByRole(com.microsoft.playwright.options.AriaRole.LINK)).hasText(
                new String[] {"Runs", "Flows", "Triggers", "Transfers", "Simulator", "Offline grants"});

        // another user: forget this one's tokens and Keycloak session, and load the page afresh
        page.evaluate("() => sessionStorage.clear()");
        context.clearCookies();
        page.navigate("about:blank");
        signIn("admin", "#/devices");
        assertThat(page.locator("#not-configured")).containsText("continuum.ui.planner-url");
        assertThat(nav.getByRole(com.microsoft.playwright.options.AriaRole.LINK)).hasText(
                new String[] {"Runs", "Flows", "Triggers", "Transfers", "Devices & clusters", "Simulator", "Offline grants"});
    }

    /** Deliverable 4 for every page but the runs and run pages (RunControlsBrowserTest): axe-core clean and no sideways scrolling, at a tablet's and a laptop's width. */
    @Test
    void shouldPassAnAxeAccessibilityCheckAndFitATabletOnTheFlowTriggerSimulatorTransfersDevicesAndGrantsPages()
            throws IOException, URISyntaxException {
        String trigger = triggerWithEveryOutcome("axe " + UUID.randomUUID().toString().substring(0, 6));
        String flow = WebUiBrowserTest.publish("scientist", WebUiBrowserTest.GREET, WebUiBrowserTest.GREET_SCHEMA, null);
        for (int[] size : new int[][] {{768, 1024}, {1280, 900}}) {
            open(size[0], size[1]);
            signIn("scientist", "#/triggers");
            for (String hash : List.of("#/flows", "#/flows/" + flow, "#/flows/new", "#/triggers", "#/triggers/" + trigger,
                    "#/simulator", "#/transfers", "#/devices", "#/grants")) {
                page.navigate(base + hash);
                page.locator("main h1").waitFor();
                if (hash.equals("#/simulator")) {
                    page.locator("#report-files").setInputFiles(simulatorReport());
                    page.locator("continuum-chart canvas").first().waitFor();
                } else if (hash.startsWith("#/triggers") || hash.equals("#/flows")) {
                    page.locator("main table tbody tr").first().waitFor();
                } else if (hash.equals("#/flows/" + flow)) {
                    page.locator("form.start-form").waitFor();
                } else if (hash.equals("#/grants")) {
                    page.locator("#no-grants, #grants-active").first().waitFor();
                } else {
                    page.waitForTimeout(500);
                }
                String where = hash + " at " + size[0] + " px";
                assertThat(Browser.axeViolations(page)).as("axe-core violations on " + where).isEmpty();
                assertThat(fitsTheWidth()).as(where + " without horizontal scrolling").isTrue();
            }
            Browser.screenshot(page, "devices-not-configured-" + size[0] + "px");
        }
    }

    static Path simulatorReport() throws URISyntaxException {
        return Path.of(OpsPagesBrowserTest.class.getResource("/ui/simulator-metrics.json").toURI());
    }
}
