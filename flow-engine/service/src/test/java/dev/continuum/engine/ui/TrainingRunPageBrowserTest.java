package dev.continuum.engine.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.BoundingBox;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import dev.continuum.engine.support.TrainingProviderProcess;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A training step on the run page (issue 37), with the real training provider (action-providers/training, local
 * backend, sign-in on) as its own process, the real engine, Keycloak and PostgreSQL: its first attempt fails, the run
 * is redriven and the second succeeds. "Where each job ran" names the site the provider reports in its details
 * (placement.site, partition, GPUs) for each attempt, and the timeline draws the two attempts as two bars.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class TrainingRunPageBrowserTest extends BrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static TrainingProviderProcess provider;
    private static Path work;
    private static int port;

    @BeforeAll
    static void startProvider() throws Exception {
        work = Files.createTempDirectory("ui-training-provider-");
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        provider = TrainingProviderProcess.start(port, work);
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.close();
        }
    }

    /** Train: a training job of 1 GPU running the command the run's input names. */
    static String trainingFlow() {
        ObjectNode parameters = JSON.createObjectNode().put("gpus_min", 1).put("gpus_max", 1).put("time_limit_seconds", 600)
                .put("command.$", "$.command");
        ObjectNode train = JSON.createObjectNode().put("Type", "Action")
                .put("ActionUrl", "http://127.0.0.1:" + port + "/providers/training").put("End", true)
                .put("ResultPath", "$.trained").put("WaitTime", 600);
        train.set("Parameters", parameters);
        ObjectNode definition = JSON.createObjectNode().put("StartAt", "Train");
        definition.putObject("States").set("Train", train);
        return definition.toString();
    }

    /** The demo trainer for a few short steps, as a JSON array for the flow's input. */
    static String trainerCommand() throws IOException {
        return JSON.writeValueAsString(java.util.List.of("/bin/sh", provider.trainerScript().toString(), "--steps", "20", "--step-millis", "100",
                "--checkpoint-every", "10"));
    }

    @Test
    void shouldShowWhereEachAttemptOfATrainingStepRanAndDrawEachAsItsOwnBar() throws Exception {
        String flow = WebUiBrowserTest.publish("scientist", trainingFlow(), null, null);
        String run = WebUiBrowserTest.start("scientist", flow, "retrain", "{\"command\":[\"/bin/sh\",\"-c\",\"sleep 1; exit 3\"]}");
        awaitStatus(run, "FAILED");
        signIn("scientist", "#/runs/" + run);

        Locator first = page.locator("ul.ran li[data-state=Train][data-attempt='1']");
        assertThat(first).containsText("ran on local");
        assertThat(first).containsText("failed");

        // redriven behind the page's back with a command that trains: the page follows its live stream
        as(Tokens.of("scientist")).body("{\"state\":\"Train\",\"input\":{\"command\":" + trainerCommand() + "}}")
                .when().post("/runs/" + run + "/redrive").then().statusCode(200);
        assertThat(page.locator(".meta .badge")).hasText("SUCCEEDED", new LocatorAssertions.HasTextOptions().setTimeout(90_000));
        Locator second = page.locator("ul.ran li[data-state=Train][data-attempt='2']");
        assertThat(second).containsText("Train, attempt 2: ran on local");
        assertThat(second).containsText("succeeded");
        assertThat(first).containsText("Train, attempt 1: ran on local");

        Locator bars = page.locator("continuum-timeline li[data-state=Train]");
        assertThat(bars).hasCount(2);
        assertThat(bars.nth(0)).hasAttribute("data-status", "failed");
        assertThat(bars.nth(1)).hasAttribute("data-status", "succeeded");
        BoundingBox one = bars.nth(0).locator(".tl-bar").boundingBox();
        BoundingBox two = bars.nth(1).locator(".tl-bar").boundingBox();
        assertThat(one.x + one.width).as("attempt 1 ends before attempt 2 starts").isLessThanOrEqualTo(two.x + 1);
        assertThat(page.locator("continuum-timeline .tl-tick").first()).hasText("0 s");
        Browser.screenshot(page, "training-redriven");
        assertThat(Browser.axeViolations(page)).as("axe-core violations on a redriven training run").isEmpty();
        assertThat(console).as("script errors").noneMatch(m -> m.startsWith("page error"));
    }

    static void awaitStatus(String run, String wanted) {
        Tokens.awaitStatus(Tokens.of("scientist"), run, wanted, Duration.ofSeconds(90));
    }
}
