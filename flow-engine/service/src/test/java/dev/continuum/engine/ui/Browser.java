package dev.continuum.engine.ui;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.BrowserType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Debian's chromium driven by Playwright: nothing is downloaded (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD), the browser is
 * the machine's /usr/bin/chromium (installed by .ci/run), headless, with a fresh profile per launch.
 */
final class Browser {

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CONTINUUM_CHROMIUM", "/usr/bin/chromium"));
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private Browser() {}

    static boolean available() {
        return Files.isExecutable(CHROMIUM);
    }

    static Playwright playwright() {
        return Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    }

    static com.microsoft.playwright.Browser launch(Playwright playwright) {
        return playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(CHROMIUM)
                .setHeadless(true)
                .setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run")));
    }

    /** Playwright with chromium, or the calling test class skipped (a failure when CONTINUUM_REQUIRE_BROWSER is set). */
    static Playwright playwrightOrSkip() {
        if (System.getenv("CONTINUUM_REQUIRE_BROWSER") != null) {
            org.assertj.core.api.Assertions.assertThat(available())
                    .as("chromium at " + CHROMIUM + " (CONTINUUM_REQUIRE_BROWSER is set)").isTrue();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(available(), "needs chromium at " + CHROMIUM
                + " (Debian package 'chromium'; .ci/run installs it)");
        return playwright();
    }

    /** Opens a page of the UI as a signed-out user and signs in on Keycloak's login page. */
    static void signIn(Page page, String base, String user, String hash, List<String> console) {
        page.navigate(base + hash);
        page.locator("#username").fill(user);
        page.locator("#password").fill(user + "-local-only");
        page.locator("#kc-login").click();
        try {
            com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat(page.locator("#user")).hasText(user);
        } catch (AssertionError e) {
            screenshot(page, "sign-in-failed");
            throw new AssertionError("sign-in as " + user + " did not reach the UI; at " + page.url() + "; console: " + console, e);
        }
    }

    /** axe-core's WCAG 2 A/AA violations on the page as it is now (id, impact, first nodes); empty when clean. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> axeViolations(Page page) throws java.io.IOException {
        try (java.io.InputStream in = Browser.class.getResourceAsStream("/META-INF/resources/webjars/axe-core/4.6.3/axe.min.js")) {
            if (in == null) {
                throw new AssertionError("axe-core WebJar not on the test classpath");
            }
            page.addScriptTag(new Page.AddScriptTagOptions().setContent(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
        }
        return (List<Map<String, Object>>) page.evaluate("""
                async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations
                    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))""");
    }

    /** Kept under target/screenshots as test artifacts. */
    static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }
}
