package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static dev.continuum.cli.EngineJson.FLOW_ID;
import static org.assertj.core.api.Assertions.assertThat;

class FlowCommandsTest {

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
    void shouldDeployDocumentAndPrintOnlyTheFlowId() {
        engine.on("POST", "/flows", 201, EngineJson.flow(1, "Greet and echo"));

        Cli.Result result = Cli.run("deploy", Cli.flow("good.json").toString(), "--api", engine.api());

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().strip()).isEqualTo(FLOW_ID);
        JsonNode sent = engine.only("POST", "/flows").json();
        assertThat(sent.path("title").asText()).isEqualTo("Greet and echo");
        assertThat(sent.path("input_schema").path("type").asText()).isEqualTo("object");
        assertThat(sent.at("/definition/StartAt").asText()).isEqualTo("Greet");
    }

    @Test
    void shouldWrapBareDefinitionAndTitleItAfterTheFile() {
        engine.on("POST", "/flows", 201, EngineJson.flow(1, "bare"));

        Cli.run("--api", engine.api(), "deploy", Cli.flow("bare.json").toString());

        JsonNode sent = engine.only("POST", "/flows").json();
        assertThat(sent.path("title").asText()).isEqualTo("bare");
        assertThat(sent.at("/definition/States/Done/Type").asText()).isEqualTo("Pass");
    }

    @Test
    void shouldLetTitleOptionOverrideTheFile() {
        engine.on("POST", "/flows", 201, EngineJson.flow(1, "Mine"));

        Cli.run("--api", engine.api(), "deploy", "--title", "Mine", Cli.flow("good.json").toString());

        assertThat(engine.only("POST", "/flows").json().path("title").asText()).isEqualTo("Mine");
    }

    @Test
    void shouldPrintProblemTitleDetailAndEveryPointerWhenEngineRefuses() {
        engine.on("POST", "/flows", 400, EngineJson.invalidFlowProblem());

        Cli.Result result = Cli.run("--api", engine.api(), "deploy", Cli.flow("broken.json").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.err().lines().toList()).containsExactly(
                "Invalid flow: 2 problem(s) found; see errors.",
                "  /title: A flow needs a title.",
                "  /definition/States/Fetch/Next: 'Analyse' is referenced but not defined in States.");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void shouldPrintProblemAsJsonOnStderrWithJsonOption() throws IOException {
        engine.on("POST", "/flows", 400, EngineJson.invalidFlowProblem());

        Cli.Result result = Cli.run("--api", engine.api(), "--json", "deploy", Cli.flow("broken.json").toString());

        JsonNode problem = FakeEngine.JSON.readTree(result.err());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(problem.path("title").asText()).isEqualTo("Invalid flow");
        assertThat(problem.path("errors").findValuesAsText("pointer")).containsExactly("/title", "/definition/States/Fetch/Next");
    }

    @Test
    void shouldPutNewVersionAndPrintIt() {
        engine.on("PUT", "/flows/" + FLOW_ID, 200, EngineJson.flow(2, "Greet and echo"));

        Cli.Result result = Cli.run("--api", engine.api(), "update", FLOW_ID, Cli.flow("bare.json").toString());

        assertThat(result.exitCode()).isZero();
        assertThat(result.out().strip()).isEqualTo(FLOW_ID + " version 2");
        JsonNode sent = engine.only("PUT", "/flows/" + FLOW_ID).json();
        assertThat(sent.has("title")).as("a bare definition keeps the flow's title").isFalse();
        assertThat(sent.at("/definition/StartAt").asText()).isEqualTo("Done");
    }

    @Test
    void shouldListFlowsAsTableAndHintAtNextPage() {
        engine.on("GET", "/flows", 200, EngineJson.page("flows", List.of(EngineJson.flow(3, "Tomography reconstruction")), true));

        Cli.Result result = Cli.run("--api", engine.api(), "flows", "--limit", "1");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("FLOW ID").contains(FLOW_ID).contains("Tomography reconstruction")
                .contains("(more: add --marker m-1)");
        assertThat(engine.only("GET", "/flows").query()).containsEntry("limit", "1").doesNotContainKey("marker");
    }

    @Test
    void shouldListFlowsAsEngineJsonWithJsonOption() throws IOException {
        engine.on("GET", "/flows", 200, EngineJson.page("flows", List.of(EngineJson.flow(3, "Tomography")), false));

        Cli.Result result = Cli.run("--api", engine.api(), "flows", "--json");

        assertThat(FakeEngine.JSON.readTree(result.out()).at("/flows/0/id").asText()).isEqualTo(FLOW_ID);
    }
}
