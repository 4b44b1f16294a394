package dev.continuum.placement.service;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.placement.service.support.GatewaysProfile;
import dev.continuum.placement.service.support.KeycloakResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The web UI's devices and clusters page (flow-engine, docs/web-ui.md) against this planner, in Debian's headless
 * Chromium: the packaged engine (built before this module) runs as a child process with sign-in on against the test
 * Keycloak and {@code continuum.ui.planner-url} pointing here; one real edge gateway heartbeats through the test broker
 * (GPU readings from a supplier: this machine has no GPU); two training jobs that each want every GPU of dc-train are
 * sent here, and the first finishes. An operator signs in on Keycloak's page and sees the gateway online with its GPU
 * charts and the second job's history — queued, then placed with the planner's reason — axe-clean, at 1280 and 768 px;
 * and likewise a job the training provider placed itself (its scheduler on the real local backend, one slot), whose
 * decisions reached this planner's log through the provider's {@code DecisionReporter}.
 * Here, not in the engine's tests: the planner's tests already run after the engine is packaged (the inference
 * provider's tests start it), so neither module depends on the other for this.
 */
@QuarkusTest
@TestProfile(DevicesPageBrowserTest.OwnGateways.class)
class DevicesPageBrowserTest {

    /** Its own planner and topic root: this test's gateway never shows up in GatewayFeedTest's inventory. */
    public static class OwnGateways extends GatewaysProfile {
        static final String TOPIC_ROOT = (String) System.getProperties()
                .computeIfAbsent("planner.test.ui-topic-root", k -> TestBrokers.freshTopics().root());

        @Override
        protected Path trace() {
            return Path.of("target", "planner-trace-devices-page.jsonl");
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new java.util.HashMap<>(super.getConfigOverrides());
            config.put("continuum.placement.mqtt-topic-root", TOPIC_ROOT);
            return config;
        }
    }

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CONTINUUM_CHROMIUM", "/usr/bin/chromium"));
    static final Path OUT = Path.of("target", "devices-page");

    @TestHTTPResource("/")
    URL planner;

    @Test
    void shouldShowTheGatewayOnlineWithItsGpuChartsAndATrainingJobsHistory() throws Exception {
        boolean required = System.getenv("CONTINUUM_REQUIRE_BROWSER") != null;
        if (required) {
            assertThat(CHROMIUM).as("chromium (CONTINUUM_REQUIRE_BROWSER is set)").isExecutable();
        }
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "needs chromium at " + CHROMIUM + " (Debian package 'chromium')");
        Path engineJar = repository().resolve("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        assertThat(engineJar).as("the packaged engine (the reactor builds it before this module)").exists();
        Files.createDirectories(OUT);

        List<AutoCloseable> running = new ArrayList<>();
        List<String> jobs = new ArrayList<>();
        try {
            String gateway = startGateway(running);
            String engine = startEngine(engineJar, running);
            String token = KeycloakResource.token("admin");
            // training jobs of one 8-GPU node each until dc-train is full and one waits; then the first one finishes
            String first = null;
            String second = null;
            for (int i = 0; i < 6 && second == null; i++) {
                String job = "train-" + UUID.randomUUID().toString().substring(0, 6);
                jobs.add(job);
                String status = place(token, job).getString("status");
                if (status.equals("queued")) {
                    second = job;
                } else if (first == null) {
                    assertThat(status).isEqualTo("placed");
                    first = job;
                }
            }
            assertThat(second).as("a training job waiting for GPUs").isNotNull();
            given().auth().oauth2(token).contentType("application/json")
                    .body(Map.of("site", "dc-train", "computeMillis", 60_000))
                    .post("/placements/" + first + "/completion").then().statusCode(200);
            // the training provider's path: its own planner decides, its reporter sends each decision here
            String lab = "ui-lab-" + UUID.randomUUID().toString().substring(0, 6);
            String trained = lab + "-b";
            try (var reporter = new dev.continuum.provider.training.planner.DecisionReporter(
                    new dev.continuum.placement.api.client.PlannerClient(planner.toURI(),
                            TrainingProviderDecisionsTest.reporterToken()), 100, Duration.ofMillis(200))) {
                var scheduler = TrainingProviderDecisionsTest.scheduler(lab, reporter);
                scheduler.admit(dev.continuum.provider.training.core.TrainingJob.queued(lab + "-a",
                        TrainingProviderDecisionsTest.request("sleep 1")));
                scheduler.admit(dev.continuum.provider.training.core.TrainingJob.queued(trained,
                        TrainingProviderDecisionsTest.request("sleep 1")));
                TrainingProviderDecisionsTest.awaitFinished(scheduler, lab + "-a", trained);
                org.awaitility.Awaitility.await("the provider's decisions sent").atMost(Duration.ofSeconds(30))
                        .until(() -> reporter.waiting() == 0 && reporter.sent() >= 3);
            }

            try (Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                    .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")))) {
                Browser chromium = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM)
                        .setHeadless(true).setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run")));
                for (int[] size : new int[][] {{1280, 900}, {768, 1024}}) {
                    Page page = chromium.newContext(new Browser.NewContextOptions().setViewportSize(size[0], size[1])).newPage();
                    page.setDefaultTimeout(60_000);
                    signIn(page, engine + "/#/devices", "admin");
                    var row = page.locator("tr[data-site='" + gateway + "']");
                    assertThat(row).hasAttribute("data-online", "true");
                    assertThat(row.locator(".badge")).hasText("online");
                    assertThat(row).containsText("1 × NVIDIA A2");
                    assertThat(row).containsText(Pattern.compile("GPU 0: \\d+% busy, \\d+ of 15360 MiB"));
                    // the patterns run in the browser (JavaScript's syntax); the gateway's id is letters, digits, dashes
                    assertThat(page.locator("figure:has(figcaption:text-is('" + gateway + ": GPU utilisation')) canvas"))
                            .hasAttribute("aria-label", Pattern.compile(
                                    "^" + gateway + ": GPU utilisation: GPU 0 from [\\d.]+ to [\\d.]+ over \\d+ points$"));
                    assertThat(page.locator("figure:has(figcaption:text-is('" + gateway + ": GPU memory used')) canvas"))
                            .hasAttribute("aria-label", Pattern.compile("GPU 0 from [\\d.]+ to [\\d.]+ over \\d+ points"));

                    var history = page.locator("tr[data-job='" + second + "'] ol.moves li");
                    assertThat(history).hasCount(2);
                    assertThat(history.nth(0)).hasAttribute("data-status", "queued");
                    assertThat(history.nth(1)).hasAttribute("data-status", "placed");
                    assertThat(history.nth(1)).containsText("placed on dc-train — ");
                    assertThat(page.locator("tr[data-job='" + first + "'] ol.moves li").first()).hasAttribute("data-status", "placed");
                    var trainedHistory = page.locator("tr[data-job='" + trained + "'] ol.moves li");
                    assertThat(trainedHistory).hasCount(2);
                    assertThat(trainedHistory.nth(0)).hasAttribute("data-status", "queued");
                    assertThat(trainedHistory.nth(1)).hasAttribute("data-status", "placed");
                    assertThat(trainedHistory.nth(1)).containsText("placed on " + lab + "/local — ");
                    assertThat(page.locator("tr[data-job='" + trained + "'] td").first())
                            .hasText("placed on " + lab + "/local");

                    page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("devices-" + size[0] + "px.png")).setFullPage(true));
                    assertThat(axeViolations(page)).as("axe-core violations at " + size[0] + " px").isEmpty();
                    assertThat((Boolean) page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))
                            .as("no sideways scrolling at " + size[0] + " px").isTrue();
                    page.context().close();
                }
            }
        } finally {
            finish(jobs); // the other test classes share this database: leave no job holding dc-train's GPUs
            for (AutoCloseable c : running.reversed()) {
                c.close();
            }
        }
    }

    static JsonPath place(String token, String id) {
        return given().auth().oauth2(token).contentType("application/json")
                .body("""
                        {"id": "%s", "kind": "training", "minGpus": 8, "partition": "research", "estimatedSeconds": 600}"""
                        .formatted(id))
                .post("/placements").then().statusCode(201).extract().jsonPath();
    }

    static void finish(List<String> jobs) {
        String token = KeycloakResource.token("admin");
        for (String job : jobs) {
            JsonPath now = given().auth().oauth2(token).get("/placements/" + job).then().extract().jsonPath();
            if ("placed".equals(now.getString("status"))) {
                given().auth().oauth2(token).contentType("application/json").body(Map.of("computeMillis", 1000))
                        .post("/placements/" + job + "/completion").then().statusCode(200);
            }
        }
    }

    /** The platform's registrar and one gateway heartbeating every 500 ms with changing GPU readings. */
    static String startGateway(List<AutoCloseable> running) throws Exception {
        Vertx vertx = Vertx.vertx();
        running.add(() -> vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = new Topics(OwnGateways.TOPIC_ROOT);
        DeviceCredentials credentials = DeviceCredentials.fromSecret(GatewaysProfile.SECRET, Clock.systemUTC());
        running.add(new CloudSide(vertx, broker.host(), broker.port(), topics, credentials, null));
        String id = TestBrokers.freshId("ui-gw");
        AtomicInteger n = new AtomicInteger();
        GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), Files.createTempDirectory("ui-gw"),
                        credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(500), 5)
                .withGpus(() -> List.of(new GpuInfo(0, "NVIDIA A2", 15360, 1024 + n.get() % 4 * 1024, 10 + n.incrementAndGet() % 9 * 10)))
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false));
        EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC());
        gw.start().get(30, TimeUnit.SECONDS);
        running.add(gw::close);
        return id;
    }

    /** The packaged engine with sign-in on, a database of its own, and continuum.ui.planner-url pointing at this planner. */
    String startEngine(Path jar, List<AutoCloseable> running) throws Exception {
        var config = ConfigProvider.getConfig();
        String host = config.getValue("continuum.db.host", String.class);
        String dbPort = config.getValue("continuum.db.port", String.class);
        String user = config.getValue("continuum.db.user", String.class);
        String database = "ui_engine_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12); // its own, as deployed
        try (var admin = java.sql.DriverManager.getConnection("jdbc:postgresql://" + host + ":" + dbPort + "/postgres", user, "")) {
            admin.createStatement().execute("CREATE DATABASE " + database);
        }
        int port = Brokers.freePort();
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-Dquarkus.http.port=" + port,
                "-Dcontinuum.db.host=" + host, "-Dcontinuum.db.port=" + dbPort, "-Dcontinuum.db.name=" + database,
                "-Dcontinuum.db.user=" + user,
                "-Dcontinuum.auth.enabled=true", "-Dcontinuum.auth.issuer=" + KeycloakServer.shared().issuer(),
                "-Dcontinuum.auth.client-secret=continuum-engine-local-secret",
                "-Dcontinuum.auth.vault-key=dGVzdC1vbmx5LXZhdWx0LWtleS0zMi1ieXRlcyEhISE=",
                "-Dcontinuum.ui.planner-url=" + planner.toString().replaceAll("/$", ""),
                "-jar", jar.toString());
        Process engine = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(OUT.resolve("engine.log").toFile()).start();
        running.add(() -> {
            engine.destroy();
            if (!engine.waitFor(20, TimeUnit.SECONDS)) {
                engine.destroyForcibly();
            }
        });
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newHttpClient();
        // a loaded machine starts Quarkus slowly
        Awaitility.await("the engine serves its UI (see " + OUT.resolve("engine.log") + ")").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptionsInstanceOf(java.io.IOException.class).until(() -> {
                    assertThat(engine.isAlive()).as("the engine runs (see " + OUT.resolve("engine.log") + ")").isTrue();
                    return http.send(HttpRequest.newBuilder(URI.create(base + "/ui/config.json")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                });
        return base;
    }

    static void signIn(Page page, String url, String user) {
        page.navigate(url);
        page.locator("#username").fill(user);
        page.locator("#password").fill(user + "-local-only");
        page.locator("#kc-login").click();
        assertThat(page.locator("#user")).hasText(user);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> axeViolations(Page page) throws java.io.IOException {
        try (var in = DevicesPageBrowserTest.class.getResourceAsStream("/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js")) {
            assertThat(in).as("axe-core WebJar on the test classpath").isNotNull();
            page.addScriptTag(new Page.AddScriptTagOptions().setContent(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
        }
        return (List<Map<String, Object>>) page.evaluate("""
                async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations
                    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))""");
    }

    static Path repository() {
        Path repo = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (repo != null && !Files.exists(repo.resolve("flow-engine"))) {
            repo = repo.getParent();
        }
        assertThat(repo).as("repository root").isNotNull();
        return repo;
    }
}
