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

    /** Kept under target/screenshots as test artifacts. */
    static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }
}
