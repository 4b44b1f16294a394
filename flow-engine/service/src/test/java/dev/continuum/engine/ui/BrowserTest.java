package dev.continuum.engine.ui;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import io.quarkus.test.common.http.TestHTTPResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import java.net.URL;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What every browser test of the UI shares: one headless Chromium per class (skipped without chromium, unless
 * CONTINUUM_REQUIRE_BROWSER is set), a fresh context per test at 1280 px (or the size a test asks for), the page's console kept for messages.
 */
abstract class BrowserTest {

    @TestHTTPResource("/")
    URL base;

    static Playwright playwright;
    static com.microsoft.playwright.Browser browser;
    BrowserContext context;
    Page page;
    final List<String> console = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void launch() {
        playwright = Browser.playwrightOrSkip();
        browser = Browser.launch(playwright);
    }

    @AfterAll
    static void close() {
        if (playwright != null) {
            playwright.close();
            playwright = null;
        }
    }

    @BeforeEach
    void openContext() {
        open(1280, 900);
    }

    /** A fresh context and page at this viewport size, in place of the one before. */
    void open(int width, int height) {
        if (context != null) {
            context.close();
        }
        context = browser.newContext(new com.microsoft.playwright.Browser.NewContextOptions().setViewportSize(width, height));
        page = context.newPage();
        page.setDefaultTimeout(20_000);
        console.clear();
        page.onConsoleMessage(message -> console.add(message.type() + ": " + message.text()));
        page.onPageError(error -> console.add("page error: " + error));
    }

    @AfterEach
    void closeContext() {
        if (context != null) {
            context.close();
            context = null;
        }
    }

    /** True when the page needs no horizontal scrolling at the current viewport width. */
    boolean fitsTheWidth() {
        return (Boolean) page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth");
    }

    /** Opens a page of the UI as a signed-out user and signs in on Keycloak's login page. */
    void signIn(String user, String hash) {
        Browser.signIn(page, base.toString(), user, hash, console);
    }
}
