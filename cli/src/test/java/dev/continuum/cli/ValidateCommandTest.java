package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ValidateCommandTest {

    @Test
    void shouldAcceptGoodFlowOfflineWithExitZero() {
        Cli.Result result = Cli.run("validate", Cli.flow("good.json").toString(), "--api", "http://127.0.0.1:1");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("good.json: valid");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void shouldNamePointerOfEveryProblemInBrokenFlowAndExitOne() {
        Cli.Result result = Cli.run("validate", Cli.flow("broken.json").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).contains("/States/Fetch/Next: 'Analyse' is referenced but not defined in States.")
                .contains("/States/Analyze: ")
                .as("a dangling Next is not also reported as a loop").doesNotContain("no path to an end");
        assertThat(result.err()).contains("invalid, 2 problem(s) found");
    }

    @Test
    void shouldPointIntoDefinitionAndInputSchemaOfDocument() {
        Cli.Result result = Cli.run("validate", Cli.flow("broken-document.json").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).contains("/definition/States/Only: A Wait state needs")
                .contains("/input_schema/type: The input schema is not valid JSON Schema");
    }

    @Test
    void shouldReportJsonSyntaxErrorWithLineAndColumn(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("typo.json"), "{\n  \"StartAt\": \"A\",\n  \"States\": {\n}\n");

        Cli.Result result = Cli.run("validate", file.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).startsWith(file + ":5:1: not valid JSON");
    }

    @Test
    void shouldRefuseStateDefinedTwiceUnderOneName(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("twice.json"), """
                {"StartAt": "Scan", "States": {
                  "Scan": {"Type": "Pass", "Next": "Scan2"},
                  "Scan2": {"Type": "Pass", "End": true},
                  "Scan": {"Type": "Pass", "End": true}}}
                """);

        Cli.Result result = Cli.run("validate", file.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(result.out()).startsWith(file + ":4:").contains("Duplicate field 'Scan'");
    }

    @Test
    void shouldExitTwoWhenFileDoesNotExist(@TempDir Path dir) {
        Cli.Result result = Cli.run("validate", dir.resolve("missing.json").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("missing.json: no such file");
    }

    @Test
    void shouldPrintIssuesAsJsonWhenAskedEvenAfterSubcommand() throws IOException {
        Cli.Result result = Cli.run("validate", "--json", Cli.flow("broken.json").toString());

        JsonNode report = FakeEngine.JSON.readTree(result.out());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
        assertThat(report.path("valid").asBoolean()).isFalse();
        assertThat(report.path("errors").findValuesAsText("pointer")).contains("/States/Fetch/Next", "/States/Analyze");
    }

    @Test
    void shouldAlsoAskEngineWithServerAndPrintItsIssues() throws IOException {
        try (FakeEngine engine = new FakeEngine()) {
            engine.on("POST", "/flows/validate", 400, """
                    {"type":"https://continuum.dev/problems/invalid","title":"Invalid flow","status":400,
                     "detail":"1 problem(s) found; see errors.",
                     "errors":[{"pointer":"/definition/States/Echo/ActionUrl","message":"No provider answers at this URL."}]}
                    """);

            Cli.Result result = Cli.run("--api", engine.api(), "validate", "--server", Cli.flow("good.json").toString());

            assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_OK);
            assertThat(result.out()).contains("Invalid flow: 1 problem(s) found; see errors.")
                    .contains("/definition/States/Echo/ActionUrl: No provider answers at this URL.");
            JsonNode sent = engine.only("POST", "/flows/validate").json();
            assertThat(sent.path("definition").path("StartAt").asText()).isEqualTo("Greet");
            assertThat(sent.path("input_schema").path("required").get(0).asText()).isEqualTo("name");
        }
    }

    @Test
    void shouldPassWithServerWhenEngineAgrees() throws IOException {
        try (FakeEngine engine = new FakeEngine()) {
            engine.on("POST", "/flows/validate", 200, "{\"valid\":true,\"errors\":[]}");

            Cli.Result result = Cli.run("--api", engine.api(), "validate", "--server", Cli.flow("bare.json").toString());

            assertThat(result.exitCode()).isZero();
            assertThat(result.out()).contains("valid (checked here and by the engine");
        }
    }

    @Test
    void shouldReplaceProvidersPlaceholderWithEngineAddress() throws IOException {
        try (FakeEngine engine = new FakeEngine()) {
            engine.on("POST", "/flows/validate", 200, "{\"valid\":true,\"errors\":[]}");

            Cli.run("--api", engine.api(), "validate", "--server", Cli.flow("good.json").toString());

            JsonNode sent = engine.only("POST", "/flows/validate").json();
            assertThat(sent.at("/definition/States/Echo/ActionUrl").asText()).isEqualTo(engine.api() + "/providers/echo");
        }
    }
}
