package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.continuum.cli.EngineJson.RUN_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WatchCommandTest {

    private FakeEngine engine;

    @BeforeEach
    void startEngine() throws IOException {
        engine = new FakeEngine();
    }

    @AfterEach
    void stopEngine() {
        engine.close();
    }

    /** One moment of a run as the engine would show it: its JSON and how many log entries exist by then. */
    record Moment(String run, int entries) {}

    /**
     * Plays a run forward one moment per GET /runs/{id}; the log only ever shows the entries of the moment last seen,
     * as the engine commits a run's events together with its status.
     */
    private void script(List<String> log, Moment... moments) {
        AtomicInteger seen = new AtomicInteger(-1);
        engine.on("GET", "/runs/" + RUN_ID, r -> FakeEngine.Response.json(200,
                moments[seen.updateAndGet(i -> Math.min(i + 1, moments.length - 1))].run()));
        engine.on("GET", "/runs/" + RUN_ID + "/log", r -> {
            int marker = Integer.parseInt(r.query().get("marker"));
            int visible = moments[Math.max(0, seen.get())].entries();
            List<String> page = new ArrayList<>(log.subList(Math.min(marker, visible), visible));
            return FakeEngine.Response.json(200, EngineJson.log(page, false));
        });
    }

    private static List<String> helloLog() {
        return List.of(
                EngineJson.event(1, "FlowStarted", null, "The run started"),
                EngineJson.event(2, "PassCompleted", "Greet", "Greet done"),
                EngineJson.event(3, "ActionStarted", "Echo", "Starting action"),
                EngineJson.event(4, "ActionCompleted", "Echo", "Echo done"),
                EngineJson.event(5, "FlowSucceeded", null, "The run succeeded"));
    }

    @Test
    void shouldFollowLogInOrderAndExitZeroWithOutputWhenRunSucceeds() {
        script(helloLog(), new Moment(EngineJson.active(), 1), new Moment(EngineJson.active(), 3),
                new Moment(EngineJson.succeeded("{\"said\":\"Hello, Ada!\"}"), 5));

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.01");

        assertThat(result.exitCode()).isZero();
        List<String> lines = result.out().lines().toList();
        assertThat(lines).filteredOn(l -> l.matches("\\s*\\d+  .*")).extracting(l -> l.strip().split("\\s+")[0])
                .containsExactly("1", "2", "3", "4", "5");
        assertThat(lines).containsSubsequence("-- ACTIVE", "-- SUCCEEDED", "output");
        assertThat(result.out()).contains("\"said\" : \"Hello, Ada!\"");
    }

    @Test
    void shouldStartAndFollowInOneCommandWithWatchOption() {
        engine.on("POST", "/flows/" + EngineJson.FLOW_ID + "/run", 201, EngineJson.active());
        script(helloLog().subList(0, 3), new Moment(EngineJson.active(), 1),
                new Moment(EngineJson.failed("EchoFailed", "The echo provider did not succeed"), 3));

        Cli.Result result = Cli.run("--api", engine.api(), "start", EngineJson.FLOW_ID, "--input", "{\"name\": \"Ada\"}",
                "--watch", "--interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out().lines().findFirst()).contains("run " + RUN_ID);
        assertThat(result.out()).contains("-- FAILED").contains("error    EchoFailed");
    }

    @Test
    void shouldExitOneAndShowErrorWhenRunFails() {
        script(helloLog().subList(0, 3), new Moment(EngineJson.active(), 1),
                new Moment(EngineJson.failed("EchoFailed", "The echo provider did not succeed"), 3));

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).contains("-- FAILED").contains("error    EchoFailed: The echo provider did not succeed");
    }

    @Test
    void shouldExitOneWhenRunWasCancelled() {
        script(helloLog().subList(0, 2), new Moment(EngineJson.ended(), 2));

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).contains("-- ENDED").contains("cause    cancelled on request").doesNotContain("error");
    }

    @Test
    void shouldKeepWaitingThroughInactiveAndSayHowToResume() {
        script(helloLog(), new Moment(EngineJson.inactive("consent needed for https://transfer.example"), 3),
                new Moment(EngineJson.inactive("consent needed for https://transfer.example"), 3),
                new Moment(EngineJson.succeeded("{}"), 5));

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.01");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("-- INACTIVE")
                .contains("-- waiting: consent needed for https://transfer.example; continue it with: continuum resume " + RUN_ID);
        assertThat(result.out().lines().filter(l -> l.equals("-- INACTIVE")).count()).as("status shown once per change").isEqualTo(1);
    }

    @Test
    void shouldPrintOneJsonLinePerEntryThenTheRunWithJsonOption() throws IOException {
        script(helloLog(), new Moment(EngineJson.active(), 2), new Moment(EngineJson.succeeded("{\"n\":1}"), 5));

        Cli.Result result = Cli.run("--api", engine.api(), "--json", "watch", RUN_ID, "--interval", "0.01");

        List<String> lines = result.out().lines().toList();
        assertThat(lines).hasSize(6);
        for (int i = 0; i < 5; i++) {
            assertThat(FakeEngine.JSON.readTree(lines.get(i)).path("seq").asInt()).isEqualTo(i + 1);
        }
        JsonNode run = FakeEngine.JSON.readTree(lines.get(5));
        assertThat(run.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(run.at("/details/output/n").asInt()).isEqualTo(1);
    }

    @Test
    void shouldRideOutEngineRestartAndPrintEachEntryOnce() throws Exception {
        int port = engine.port();
        script(helloLog(), new Moment(EngineJson.active(), 1));
        CompletableFuture<Cli.Result> watching = CompletableFuture.supplyAsync(() ->
                Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.05", "--patience", "20"));
        // The second status request means the first poll was answered: before any answer the CLI rightly gives up.
        awaitRequests("/runs/" + RUN_ID, 2);

        engine.close();
        Thread.sleep(400); // the period under test: an outage the CLI rides out
        engine = new FakeEngine(port);
        script(helloLog(), new Moment(EngineJson.succeeded("{}"), 5));
        Cli.Result result = watching.get(20, TimeUnit.SECONDS);

        assertThat(result.exitCode()).isZero();
        assertThat(result.err()).contains("-- cannot reach the engine at").contains("-- reconnected");
        assertThat(result.out().lines().filter(l -> l.matches("\\s*\\d+  .*")).map(l -> l.strip().split("\\s+")[0]))
                .containsExactly("1", "2", "3", "4", "5");
    }

    @Test
    void shouldGiveUpWithHintWhenEngineStaysAwayLongerThanPatience() throws Exception {
        script(helloLog(), new Moment(EngineJson.active(), 1));
        CompletableFuture<Cli.Result> watching = CompletableFuture.supplyAsync(() ->
                Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.05", "--patience", "0.5"));
        awaitRequests("/runs/" + RUN_ID, 2);

        engine.close();
        Cli.Result result = watching.get(20, TimeUnit.SECONDS);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).contains("retrying for up to 0.5 s").contains("is the engine running?");
    }

    @Test
    void shouldNotRetryWhenEngineNeverAnswered() {
        engine.close();

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID, "--interval", "0.05");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).doesNotContain("retrying").contains("connection refused");
    }

    private void awaitRequest(String path) throws InterruptedException {
        awaitRequests(path, 1);
    }

    private void awaitRequests(String path, int count) {
        await("the CLI to ask for " + path + " " + count + " time(s)").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> engine.requests().stream().filter(r -> r.path().equals(path)).count() >= count);
    }

    @Test
    void shouldExitThreeWhenRunDoesNotExist() {
        engine.on("GET", "/runs/" + RUN_ID, 404, EngineJson.runNotFoundProblem(RUN_ID));

        Cli.Result result = Cli.run("--api", engine.api(), "watch", RUN_ID);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.err()).contains("Run not found: No run with id '" + RUN_ID + "' exists.");
    }
}
