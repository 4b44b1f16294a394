package dev.continuum.engine.ui;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16's speed figures (a benchmark: it prints numbers and asserts none of them; run by bench/scripts/ui-bench.sh):
 * the filtered run list over 100,000 runs in PostgreSQL (p50/p95/p99 of GET /runs with status + flow + label or tag +
 * time range), the run list page and a run with a 2,000-item Map rendered in Debian's chromium (the pages' performance
 * marks, from navigation start). Against the real engine and a PostgreSQL database of its own (PostgresResource), with
 * authentication off (the test profile's default): Keycloak takes minutes to start on a loaded machine, and without
 * sign-in the list's SQL has no per-user role condition (measured apart: docs/benchmarks.md).
 */
@QuarkusTest
class UiBench {

    static final int RUNS = Integer.getInteger("ui-bench.runs", 100_000);
    static final int REQUESTS = Integer.getInteger("ui-bench.requests", 400);
    static final int FLOWS = 5;
    static final String MODES = """
            {"StartAt":"Mode","States":{
              "Mode":{"Type":"Choice","Choices":[
                {"Variable":"$.mode","StringEquals":"wait","Next":"Nap"},
                {"Variable":"$.mode","StringEquals":"fail","Next":"Boom"}],"Default":"Done"},
              "Nap":{"Type":"Wait","Seconds":36000,"End":true},
              "Boom":{"Type":"Fail","Error":"Bench"},
              "Done":{"Type":"Pass","End":true}}}""";
    static final String[] STATUSES = {"ACTIVE", "SUCCEEDED", "FAILED", "ENDED"};

    @TestHTTPResource("/")
    URL base;

    @Inject
    DataSource db;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void measureTheRunListAndTheRunPage() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("ui-bench.enabled"), "a benchmark: run with -Dui-bench.enabled=true");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        long seedStart = System.nanoTime();
        seed(now);
        System.out.printf("BENCH seeded %,d runs in %.1f s%n", RUNS, (System.nanoTime() - seedStart) / 1e9);

        listLatency(now);
        String mapRun = mapRun();
        browser(mapRun, now);
    }

    /** Template runs of each status from real runs (their state documents are the engine's), copied RUNS times in SQL. */
    void seed(Instant now) throws Exception {
        List<String> templates = new ArrayList<>();
        for (int f = 0; f < FLOWS; f++) {
            String flow = given().contentType("application/json").body("{\"title\":\"bench flow " + f + "\",\"definition\":" + MODES + "}")
                    .when().post("/flows").then().statusCode(201).extract().path("id");
            for (String mode : List.of("wait", "done", "fail", "cancel")) {
                String run = given().contentType("application/json").body("{\"body\":{\"mode\":\"" + (mode.equals("cancel") ? "wait" : mode) + "\"},\"label\":\"template\"}")
                        .when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");
                if (mode.equals("cancel")) {
                    given().contentType("application/json").body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
                }
                templates.add(run);
            }
        }
        Thread.sleep(2000); // the finished templates settle
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE templates AS SELECT row_number() OVER (ORDER BY id) - 1 AS k, * FROM runs WHERE id IN ('"
                    + String.join("','", templates) + "')");
            // owners: a third each (the signed-in user sees their own third); labels batch-0..999; two tags each;
            // start times one every 26 s back from now (100,000 runs span 30 days); ACTIVE ones never wake
            s.execute("""
                    INSERT INTO runs (id, flow_id, flow_version, owner_id, status, label, tags, state, next_wake_at,
                                      event_seq, created_at, updated_at, completed_at, run_managers, run_monitors)
                    SELECT gen_random_uuid(), t.flow_id, t.flow_version, (ARRAY['scientist','scientist2','admin'])[1 + i %% 3],
                           t.status, 'batch-' || (i %% 1000), jsonb_build_array('tag-' || (i %% 50), 'site-' || (i %% 7)), t.state,
                           NULL, 0, TIMESTAMPTZ '%1$s' - i * INTERVAL '26 seconds', TIMESTAMPTZ '%1$s' - i * INTERVAL '26 seconds',
                           CASE WHEN t.completed_at IS NULL THEN NULL ELSE TIMESTAMPTZ '%1$s' - i * INTERVAL '20 seconds' END,
                           '[]', '[]'
                    FROM generate_series(1, %2$d) i JOIN templates t ON t.k = (i * 7919) %% %3$d""".formatted(now, RUNS, templates.size()));
            s.execute("ANALYZE runs");
        }
    }

    /** GET /runs pages with status + flow + label or tag + a time range, each combination drawn at random. */
    void listLatency(Instant now) throws Exception {
        Random random = new Random(16);
        long[] micros = new long[REQUESTS];
        int matched = 0;
        for (int i = -20; i < REQUESTS; i++) { // 20 warm-up requests
            String status = STATUSES[random.nextInt(4)] + (random.nextBoolean() ? "," + STATUSES[random.nextInt(4)] : "");
            Instant to = now.minus(random.nextInt(27 * 24), ChronoUnit.HOURS);
            String query = "limit=25&filter_status=" + status + "&filter_flow_title=" + enc("flow " + random.nextInt(FLOWS))
                    + (random.nextBoolean() ? "&filter_label=" + enc("batch-" + random.nextInt(100)) : "&filter_tags=tag-" + random.nextInt(50))
                    + "&filter_start_time=" + enc(to.minus(3, ChronoUnit.DAYS) + "," + to);
            long start = System.nanoTime();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "runs?" + query)).build(),
                    HttpResponse.BodyHandlers.ofString());
            long took = (System.nanoTime() - start) / 1000;
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            if (i >= 0) {
                micros[i] = took;
                matched += answer.body().split("\"run_id\"", -1).length - 1;
            }
        }
        Arrays.sort(micros);
        System.out.printf("BENCH GET /runs filtered (status+flow+label|tag+3-day range, auth off, %d requests, %.1f runs a page): "
                        + "p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n", REQUESTS, matched / (double) REQUESTS,
                micros[REQUESTS / 2] / 1000.0, micros[REQUESTS * 95 / 100] / 1000.0, micros[REQUESTS * 99 / 100] / 1000.0,
                micros[REQUESTS - 1] / 1000.0);
    }

    String mapRun() throws InterruptedException {
        String flow = given().contentType("application/json").body("{\"title\":\"bench map\",\"definition\":" + RunControlsBrowserTest.mapFlow(2000) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
        String run = given().contentType("application/json").body("{\"body\":{},\"label\":\"map 2000\"}").when().post("/flows/" + flow + "/run")
                .then().statusCode(201).extract().path("run_id");
        for (int i = 0; i < 120 && !"SUCCEEDED".equals(given().contentType("application/json").when().get("/runs/" + run).then().extract().path("status")); i++) {
            Thread.sleep(500);
        }
        return run;
    }

    void browser(String mapRun, Instant now) {
        try (Playwright playwright = Browser.playwrightOrSkip()) {
            com.microsoft.playwright.Browser chromium = Browser.launch(playwright);
            BrowserContext context = chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(1280, 900));
            Page page = context.newPage();
            page.setDefaultTimeout(60_000);
            page.navigate(base + "#/runs"); // authentication off: no sign-in page
            page.locator("#user").waitFor();
            String from = now.minus(10, ChronoUnit.DAYS).toString().substring(0, 16);
            String to = now.minus(7, ChronoUnit.DAYS).toString().substring(0, 16);
            measure(page, "#/runs?status=SUCCEEDED,FAILED&flow=flow+2&tag=tag-7&from=" + from + "&to=" + to,
                    "continuum:runs-rendered", "run list page (filtered, 100,000 runs)", "tbody tr");
            measure(page, "#/runs", "continuum:runs-rendered", "run list page (unfiltered, 100,000 runs)", "tbody tr[data-run]");
            measure(page, "#/runs/" + mapRun, "continuum:run-rendered", "run page with a 2,000-item Map (succeeded)",
                    "li[data-group=Fan]");
            System.out.println("BENCH map counts shown: " + page.locator("li[data-group=Fan] .counts").textContent());
            Browser.screenshot(page, "bench-map-2000");
        }
    }

    /**
     * Loads the page afresh five times; the mark's time from navigation start (bundle, sign-in check, API calls, render),
     * and where it went: the bundle's arrival, the slowest API call (request to last byte, the server's share), the
     * last API answer's arrival, and from there to the mark (the browser's own work: parsing, rendering, layout).
     */
    void measure(Page page, String hash, String mark, String what, String shown) {
        double[][] ms = new double[5][];
        for (int i = 0; i < ms.length; i++) {
            page.navigate(base + "?fresh=" + i + hash);
            page.waitForFunction("m => performance.getEntriesByName(m).length > 0", mark);
            @SuppressWarnings("unchecked")
            List<Number> split = (List<Number>) page.evaluate("""
                    m => {
                      const at = performance.getEntriesByName(m)[0].startTime;
                      const all = performance.getEntriesByType('resource');
                      const api = all.filter(r => !r.name.includes('/live/') && !r.name.includes('/static/') && r.responseEnd <= at);
                      const bundle = all.filter(r => /\\/static\\/bundle\\/app-.*\\.js/.test(r.name)).map(r => r.responseEnd)[0] ?? 0;
                      const slowest = Math.max(0, ...api.map(r => r.responseEnd - r.startTime));
                      const dataIn = Math.max(0, ...api.map(r => r.responseEnd));
                      return [at, bundle, slowest, dataIn, at - dataIn, api.length];
                    }""", mark);
            ms[i] = split.stream().mapToDouble(Number::doubleValue).toArray();
            assertThat(page.locator(shown).count()).as(what + " shows " + shown).isPositive();
        }
        Arrays.sort(ms, java.util.Comparator.comparingDouble(m -> m[0]));
        double[] median = ms[2];
        System.out.printf("BENCH %s: median %.0f ms, max %.0f ms (5 loads, chromium headless); the median load: bundle in at %.0f ms, "
                        + "%d API calls, the slowest %.0f ms, the last answer in at %.0f ms, then %.0f ms to the mark (render)%n",
                what, median[0], ms[4][0], median[1], (int) median[5], median[2], median[3], median[4]);
    }

    static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
