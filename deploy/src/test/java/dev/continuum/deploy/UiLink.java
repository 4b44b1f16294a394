package dev.continuum.deploy;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

/**
 * A UI link `up` printed, opened in Debian's chromium (nothing downloaded): the user signs in on Keycloak's page and
 * lands on the run the link names. Without chromium on the machine this check is left out (the engine's browser tests
 * say why); CONTINUUM_REQUIRE_BROWSER makes a missing chromium a failure, as in .ci/run.
 */
final class UiLink {

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CONTINUUM_CHROMIUM", "/usr/bin/chromium"));

    private UiLink() {}

    static void assertOpensAfterSignIn(String link, String user, String runId) {
        if (!Files.isExecutable(CHROMIUM)) {
            if (System.getenv("CONTINUUM_REQUIRE_BROWSER") != null) {
                throw new AssertionError("chromium at " + CHROMIUM + " (CONTINUUM_REQUIRE_BROWSER is set)");
            }
            System.out.println("UpIT: no chromium at " + CHROMIUM + "; the UI link was checked over HTTP only");
            return;
        }
        try (Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")))) {
            Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM)
                    .setHeadless(true).setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run")));
            Page page = browser.newPage();
            page.setDefaultTimeout(60_000);
            page.navigate(link);
            page.locator("#username").fill(user);
            page.locator("#password").fill(user + "-local-only");
            page.locator("#kc-login").click();
            assertThat(page.locator("#user")).hasText(user);
            assertThat(page).hasURL(link);
            assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED");
            assertThat(page.locator("main h1")).containsText("Run ");
            assertThat(page.locator("g.node").first()).isVisible();
            page.screenshot(new Page.ScreenshotOptions().setPath(Path.of("target", "screenshots", "up-link-" + runId + ".png")));
        }
    }
}
