package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.continuum.cli.EngineJson.FLOW_ID;
import static dev.continuum.cli.EngineJson.RUN_ID;
import static org.assertj.core.api.Assertions.assertThat;

class RunCommandsTest {

    private FakeEngine engine;

    @BeforeEach
    void startEngine() throws IOException {
        engine = new FakeEngine();
    }

    @AfterEach
    void stopEngine() {
        engine.close();
    }

    @Test
    void shouldStartRunWithInlineInputLabelAndTagsAndPrintRunId() {
        engine.on("POST", "/flows/" + FLOW_ID + "/run", 201, EngineJson.active());

        Cli.Result result = Cli.run("--api", engine.api(), "start", FLOW_ID, "--input", "{\"name\": \"Ada\"}",
                "--label", "trial", "--tag", "a", "--tag", "b");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().strip()).isEqualTo(RUN_ID);
        JsonNode sent = engine.only("POST", "/flows/" + FLOW_ID + "/run").json();
        assertThat(sent.at("/body/name").asText()).isEqualTo("Ada");
        assertThat(sent.path("label").asText()).isEqualTo("trial");
        assertThat(sent.path("tags").toString()).isEqualTo("[\"a\",\"b\"]");
    }

    @Test
    void shouldReadRunInputFromFile(@TempDir Path dir) throws IOException {
        engine.on("POST", "/flows/" + FLOW_ID + "/run", 201, EngineJson.active());
        Path input = Files.writeString(dir.resolve("input.json"), "{\"sample\": \"S-17\", \"repeats\": 3}");

        Cli.run("--api", engine.api(), "start", FLOW_ID, "-i", input.toString());

        JsonNode body = engine.only("POST", "/flows/" + FLOW_ID + "/run").json().path("body");
        assertThat(body.path("sample").asText()).isEqualTo("S-17");
        assertThat(body.path("repeats").asInt()).isEqualTo(3);
    }

    @Test
    void shouldReadRunInputFromStandardInputForDash() {
        engine.on("POST", "/flows/" + FLOW_ID + "/run", 201, EngineJson.active());
        InputStream keyboard = System.in;
        System.setIn(new ByteArrayInputStream("{\"sample\": \"S-18\"}".getBytes(StandardCharsets.UTF_8)));
        try {
            Cli.run("--api", engine.api(), "start", FLOW_ID, "--input", "-");
        } finally {
            System.setIn(keyboard);
        }

        assertThat(engine.only("POST", "/flows/" + FLOW_ID + "/run").json().at("/body/sample").asText()).isEqualTo("S-18");
    }

    @Test
    void shouldSendEmptyInputWhenNoneGiven() {
        engine.on("POST", "/flows/" + FLOW_ID + "/run", 201, EngineJson.active());

        Cli.run("--api", engine.api(), "start", FLOW_ID);

        assertThat(engine.only("POST", "/flows/" + FLOW_ID + "/run").json().path("body").toString()).isEqualTo("{}");
    }

    @Test
    void shouldRefuseInputThatIsNeitherFileNorJsonWithoutCallingEngine() {
        Cli.Result result = Cli.run("--api", engine.api(), "start", FLOW_ID, "--input", "name=Ada");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("'name=Ada' is neither an existing file nor valid JSON");
        assertThat(engine.requests()).isEmpty();
    }

    @Test
    void shouldRefuseInputWithTextAfterTheJson() {
        Cli.Result result = Cli.run("--api", engine.api(), "start", FLOW_ID, "--input", "{\"name\": \"Ada\"} {\"name\": \"Bo\"}");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(engine.requests()).isEmpty();
    }

    @Test
    void shouldShowStatusWithOutputOfFinishedRun() {
        engine.on("GET", "/runs/" + RUN_ID, 200, EngineJson.succeeded("{\"result\":{\"said\":\"Hello, Ada!\"}}"));

        Cli.Result result = Cli.run("--api", engine.api(), "status", RUN_ID);

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("status   SUCCEEDED").contains("label    trial").contains("tags     a, b")
                .contains("\"said\" : \"Hello, Ada!\"");
    }

    @Test
    void shouldShowTheParentRunAndTheChildRunsOfARunLinkedByFlowCalls() {
        String parent = "99999999-8888-7777-6666-555555555555";
        String child = "11111111-2222-3333-4444-666666666666";
        engine.on("GET", "/runs/" + RUN_ID, 200, EngineJson.succeeded("{}").replace("\"label\":\"trial\"",
                "\"label\":\"trial\",\"parent_run_id\":\"" + parent + "\",\"parent_state\":\"Calibrate\","
                        + "\"child_run_ids\":[\"" + child + "\"]"));

        Cli.Result result = Cli.run("--api", engine.api(), "status", RUN_ID);

        assertThat(result.out()).contains("parent   " + parent + " (state Calibrate)\n").contains("children " + child + "\n");
    }

    @Test
    void shouldShowTimesToTheSecond() {
        engine.on("GET", "/runs/" + RUN_ID, 200, EngineJson.succeeded("{}").replace("05:00:01Z", "05:00:01.183251Z"));

        Cli.Result result = Cli.run("--api", engine.api(), "status", RUN_ID);

        assertThat(result.out()).contains("started  2026-11-22T05:00:01Z\n");
    }

    @Test
    void shouldShowErrorAndCauseOfFailedRun() {
        engine.on("GET", "/runs/" + RUN_ID, 200, EngineJson.failed("EchoFailed", "The echo provider did not succeed"));

        Cli.Result result = Cli.run("--api", engine.api(), "status", RUN_ID);

        assertThat(result.out()).contains("status   FAILED").contains("error    EchoFailed: The echo provider did not succeed");
    }

    @Test
    void shouldPrintNotFoundProblemAndExitThree() {
        String unknown = "11111111-2222-3333-4444-555555555555";
        engine.on("GET", "/runs/" + unknown, 404, EngineJson.runNotFoundProblem(unknown));

        Cli.Result result = Cli.run("--api", engine.api(), "status", unknown);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.err().strip()).isEqualTo("Run not found: No run with id '" + unknown + "' exists.");
    }

    @Test
    void shouldNotRepeatSingleFieldIssueThatIsAlreadyTheDetail() {
        engine.on("GET", "/runs/nope", 400, """
                {"type":"https://continuum.dev/problems/invalid","title":"Invalid request","status":400,
                 "detail":"/runId: 'nope' is not a valid id (expected a UUID).",
                 "errors":[{"pointer":"/runId","message":"'nope' is not a valid id (expected a UUID)."}]}
                """);

        Cli.Result result = Cli.run("--api", engine.api(), "status", "nope");

        assertThat(result.err().lines().toList())
                .containsExactly("Invalid request: /runId: 'nope' is not a valid id (expected a UUID).");
    }

    @Test
    void shouldShowStartOfNonProblemErrorBody() {
        engine.on("GET", "/runs/" + RUN_ID, r -> new FakeEngine.Response(502, "text/html", "<html>Bad gateway</html>"));

        Cli.Result result = Cli.run("--api", engine.api(), "status", RUN_ID);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.err().strip()).isEqualTo("HTTP 502: <html>Bad gateway</html>");
    }

    @Test
    void shouldHintAtStartingEngineWhenNothingListens() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        Cli.Result result = Cli.run("--api", "http://127.0.0.1:" + closedPort, "runs");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err().lines().toList()).hasSize(1);
        assertThat(result.err()).contains("connection refused").contains("is the engine running? start it with ./continuum up");
    }

    @Test
    void shouldPassRunFiltersAsQueryAndUpperCaseTheStatus() {
        engine.on("GET", "/runs", 200, EngineJson.page("runs", List.of(EngineJson.active()), false));

        Cli.Result result = Cli.run("--api", engine.api(), "runs", "--status", "active", "--flow", FLOW_ID, "--tag", "a");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("RUN ID").contains(RUN_ID + "  ACTIVE");
        assertThat(engine.only("GET", "/runs").query()).containsEntry("status", "ACTIVE").containsEntry("flow_id", FLOW_ID)
                .containsEntry("tag", "a").doesNotContainKey("label");
    }

    @Test
    void shouldFollowLogPagesUntilTheEnd() {
        engine.on("GET", "/runs/" + RUN_ID + "/log", request -> {
            int marker = Integer.parseInt(request.query().get("marker"));
            List<String> entries = new ArrayList<>();
            // Two entries per page: the CLI must keep asking from the last seq it saw.
            for (int seq = marker + 1; seq <= Math.min(marker + 2, 5); seq++) {
                entries.add(EngineJson.event(seq, "PassCompleted", "S" + seq, "step " + seq));
            }
            return FakeEngine.Response.json(200, EngineJson.log(entries, marker + 2 < 5));
        });

        Cli.Result result = Cli.run("--api", engine.api(), "logs", RUN_ID);

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().lines().toList()).hasSize(5);
        assertThat(result.out().lines().map(l -> l.substring(l.indexOf("step"))).toList())
                .containsExactly("step 1", "step 2", "step 3", "step 4", "step 5");
    }

    @Test
    void shouldCancelWithReasonAndPrintNewStatus() {
        engine.on("POST", "/runs/" + RUN_ID + "/cancel", 200, EngineJson.ended());

        Cli.Result result = Cli.run("--api", engine.api(), "cancel", RUN_ID, "--reason", "wrong sample");

        assertThat(result.out().strip()).isEqualTo(RUN_ID + " ENDED");
        assertThat(engine.only("POST", "/runs/" + RUN_ID + "/cancel").json().path("reason").asText()).isEqualTo("wrong sample");
    }

    @Test
    void shouldReportConflictWhenResumingRunThatIsNotInactive() {
        engine.on("POST", "/runs/" + RUN_ID + "/resume", 409, """
                {"type":"https://continuum.dev/problems/conflict","title":"Run not inactive","status":409,
                 "detail":"Only an INACTIVE run can be resumed; this one is SUCCEEDED.","errors":[]}
                """);

        Cli.Result result = Cli.run("--api", engine.api(), "resume", RUN_ID);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.err().strip()).isEqualTo("Run not inactive: Only an INACTIVE run can be resumed; this one is SUCCEEDED.");
    }

    @Test
    void shouldShowTheFormARunWaitsOnAndSendTheAnswerFromAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        engine.on("GET", "/runs/" + RUN_ID + "/inputs/Approve", 200, """
                {"state_name":"Approve","title":"Approve the copy","description":"Copy /data?",
                 "schema":{"type":"object","required":["approved"]},"selectable_by":[]}""");
        engine.on("POST", "/runs/" + RUN_ID + "/inputs/Approve", 200, EngineJson.active());
        java.nio.file.Path answer = java.nio.file.Files.writeString(dir.resolve("answer.json"), "{\"approved\": true}");

        Cli.Result form = Cli.run("--api", engine.api(), "input", RUN_ID, "Approve");
        Cli.Result sent = Cli.run("--api", engine.api(), "input", RUN_ID, "Approve", "--file", answer.toString());

        assertThat(form.out()).contains("Approve the copy", "Copy /data?", "\"required\"");
        assertThat(sent.exitCode()).isZero();
        assertThat(sent.out().strip()).isEqualTo(RUN_ID + " ACTIVE");
        assertThat(engine.requests()).filteredOn(r -> r.method().equals("POST")).singleElement()
                .satisfies(r -> assertThat(r.json().path("approved").asBoolean()).isTrue());
    }

    @Test
    void shouldNameTheFieldOfARefusedAnswer() {
        engine.on("POST", "/runs/" + RUN_ID + "/inputs/Approve", 400, """
                {"type":"https://continuum.dev/problems/invalid","title":"Invalid input","status":400,
                 "detail":"The answer does not satisfy the form of state 'Approve': 1 problem(s); see errors.",
                 "errors":[{"pointer":"/approved","message":"required property 'approved' not found."}]}""");

        Cli.Result result = Cli.run("--api", engine.api(), "input", RUN_ID, "Approve", "--file", "{}");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains("/approved", "required property 'approved' not found");
    }

    @Test
    void shouldResumeAndPrintNewStatus() {
        engine.on("POST", "/runs/" + RUN_ID + "/resume", 200, EngineJson.active());

        Cli.Result result = Cli.run("--api", engine.api(), "resume", RUN_ID);

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().strip()).isEqualTo(RUN_ID + " ACTIVE");
    }

    @Test
    void shouldReleaseFinishedRun() {
        engine.on("POST", "/runs/" + RUN_ID + "/release", r -> FakeEngine.Response.json(204, ""));

        Cli.Result result = Cli.run("--api", engine.api(), "release", RUN_ID);

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().strip()).isEqualTo("released " + RUN_ID);
        assertThat(engine.requests()).extracting(FakeEngine.Request::path).containsExactly("/runs/" + RUN_ID + "/release");
    }

    @Test
    void shouldExitTwoWhenApiIsNotAnHttpUrl() {
        Cli.Result result = Cli.run("--api", "127.0.0.1:8080", "runs");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err().strip()).isEqualTo(
                "continuum: --api must be an http(s) URL such as http://127.0.0.1:8080, not '127.0.0.1:8080'");
    }

    @Test
    void shouldExitTwoOnUnknownOption() {
        Cli.Result result = Cli.run("--api", engine.api(), "runs", "--colour");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("Unknown option: '--colour'");
    }
}
