package dev.continuum.flow.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.InterpreterOptions;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.flow.testing.FakeProvider;
import dev.continuum.flow.testing.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real Globus flows (shared/globus-flows): every valid one is accepted and runs; every invalid one is
 * refused with an issue at the place the manifest names.
 */
class GlobusFixturesTest {

    private final FlowValidator validator = new FlowValidator();

    static Stream<Path> validFlows() {
        return Stream.concat(Fixtures.flows("valid").stream(), Fixtures.flows("valid-cases").stream());
    }

    static Stream<Path> invalidFlows() {
        return Fixtures.flows("invalid").stream();
    }

    static Stream<Path> validFlowsWithInput() {
        return Fixtures.flows("valid").stream().filter(f -> Fixtures.companion(f, ".input.json").isPresent());
    }

    /** For each invalid fixture: the pointer of the issue the manifest expects, and a word of its message. */
    private static final Map<String, List<String>> EXPECTED_ISSUES = Map.ofEntries(
            Map.entry("i01-legacy-actionwait-resource.json", List.of("/States/TransferSourceToDMZWait/Type", "ActionWait")),
            Map.entry("i02-missing-startat-empty-state.json", List.of("/StartAt", "'StartAt' is a required property")),
            Map.entry("i03-undefined-startat-unreferenced-state.json", List.of("/StartAt", "not defined")),
            Map.entry("t01-action-invalid-action-url.json", List.of("/States/TheAction/ActionUrl", "http")),
            Map.entry("t02-action-postgresql-action-url.json", List.of("/States/TheAction/ActionUrl", "http")),
            Map.entry("t03-action-missing-parameters-and-input-path.json", List.of("/States/TheAction", "Parameters")),
            Map.entry("t04-action-result-path-is-not-json-path.json", List.of("/States/TheAction/ResultPath", "JSONPath")),
            Map.entry("t05-action-input-path-is-not-json-path.json", List.of("/States/TheAction/InputPath", "JSONPath")),
            Map.entry("t06-action-parameters-are-non-dict.json", List.of("/States/TheAction/Parameters", "object")),
            Map.entry("t07-action-nested-parameters-with-invalid-json-path-value.json",
                    List.of("/States/TheAction/Parameters/a_json_path.$", "JSONPath")),
            Map.entry("t08-action-missing-action-url.json", List.of("/States/TheAction/ActionUrl", "required")),
            Map.entry("t09-action-action-state-with-non-boolean-exception-on-fail.json",
                    List.of("/States/TheAction/ExceptionOnActionFailure", "true or false")),
            Map.entry("t10-action-action-state-with-catchers-with-empty-errors.json",
                    List.of("/States/TheAction/Catch/0/ErrorEquals", "non-empty")),
            Map.entry("t11-action-action-state-with-catchers-with-invalid-result-path.json",
                    List.of("/States/TheAction/Catch/0/ResultPath", "JSONPath")),
            Map.entry("t12-action-action-state-with-catchers-with-extra-fields.json",
                    List.of("/States/TheAction/Catch/0/ThisIsAnExtraField", "not a field")),
            Map.entry("t13-choice-choice-state-using-empty-or.json", List.of("/States/TheChoice/Choices/0/Or", "non-empty")),
            Map.entry("t14-choice-choice-state-using-empty-and.json", List.of("/States/TheChoice/Choices/0/And", "non-empty")),
            Map.entry("t15-choice-empty-choices-for-choice-state.json", List.of("/States/TheChoice/Choices", "non-empty")),
            Map.entry("t16-choice-extra-fields-set-on-choice-state.json",
                    List.of("/States/TheChoice/ThisIsAnExtraField", "not a field")),
            Map.entry("t17-choice-choice-state-using-or-where-next-is-defined.json",
                    List.of("/States/TheChoice/Choices/0/Or/0/Next", "Next")),
            Map.entry("t18-choice-choice-state-using-not-where-next-is-defined.json",
                    List.of("/States/TheChoice/Choices/0/Not/Next", "Next")),
            Map.entry("t19-choice-choice-state-with-invalid-comparison-operator.json",
                    List.of("/States/TheChoice/Choices/0/NOT_AN_OPERATOR", "not a comparison operator")),
            Map.entry("t20-choice-choice-state-with-conjunctive-nested-boolean-condition-using.json",
                    List.of("/States/TheChoice/Choices/0/Not/Or/0/Next", "Next")),
            Map.entry("t21-choice-choice-state-with-conjunctive-nested-boolean-condition-with-.json",
                    List.of("/States/TheChoice/Choices/0/Not/Or/0/ThisIsAnExtraField", "not a comparison operator")),
            Map.entry("t22-choice-choice-state-with-non-boolean-data-test-expression.json",
                    List.of("/States/TheChoice/Choices/0/Not/IsString", "true or false")),
            Map.entry("t23-expression-eval-missing-next-and-end.json", List.of("/States/TheEval", "Next")),
            Map.entry("t24-expression-eval-result-path-is-non-jsonpath.json", List.of("/States/TheEval/ResultPath", "JSONPath")),
            Map.entry("t25-expression-eval-parameters-are-non-dict.json", List.of("/States/TheEval/Parameters", "object")),
            Map.entry("t26-expression-eval-extra-fields-set.json", List.of("/States/TheEval/Endd", "not a field")),
            Map.entry("t27-expression-eval-nested-parameters-with-invalid-json-path-value.json",
                    List.of("/States/TheEval/Parameters/invalid_json_path_indicator.$", "JSONPath")),
            Map.entry("t28-fail-extra-fields-fail-state.json", List.of("/States/TheFail/SomeExtraField", "not a field")),
            Map.entry("t29-fail-next-state-not-allowed.json", List.of("/States/TheFail/Next", "cannot have Next")),
            Map.entry("t30-flow-top-level-unexpected-top-level-fields.json", List.of("/SomeCustomField", "not a field")),
            Map.entry("t31-flow-top-level-missing-start-at-field.json", List.of("/StartAt", "required")),
            Map.entry("t32-flow-top-level-missing-states-field.json", List.of("/States", "required")),
            Map.entry("t33-flow-top-level-empty-flow-definition.json", List.of("/StartAt", "required")),
            Map.entry("t34-flow-top-level-missing-start-at-and-states-fields.json", List.of("/States", "required")),
            Map.entry("t35-pass-input-path-is-not-json-path.json", List.of("/States/ThePass/InputPath", "JSONPath")));

    @ParameterizedTest(name = "{0}")
    @MethodSource("validFlows")
    void shouldAcceptEveryValidGlobusFlow(Path flow) {
        ValidationReport report = validator.validate(Fixtures.read(flow));

        assertThat(report.issues()).isEmpty();
        assertThat(report.valid()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFlows")
    void shouldRefuseEveryInvalidGlobusFlowAtThePlaceTheManifestNames(Path flow) {
        List<String> expected = EXPECTED_ISSUES.get(flow.getFileName().toString());
        assertThat(expected).as("an expectation is written down for " + flow.getFileName()).isNotNull();

        ValidationReport report = validator.validate(Fixtures.read(flow));

        assertThat(report.valid()).isFalse();
        assertThat(report.flow()).isEmpty();
        assertThat(report.issues())
                .anySatisfy(issue -> {
                    assertThat(issue.pointer()).isEqualTo(expected.get(0));
                    assertThat(issue.message()).contains(expected.get(1));
                });
    }

    @Test
    void shouldReportBothMissingStartAtAndTheUntypedStateAtOnce() {
        ValidationReport report = validator.validate(Fixtures.read(
                Fixtures.globusFlows().resolve("invalid/i02-missing-startat-empty-state.json")));

        assertThat(report.issues()).extracting(ValidationIssue::pointer)
                .contains("/StartAt", "/States/bogus/Type");
    }

    @Test
    void shouldReportBothUndefinedStartAtAndUnreferencedState() {
        ValidationReport report = validator.validate(Fixtures.read(
                Fixtures.globusFlows().resolve("invalid/i03-undefined-startat-unreferenced-state.json")));

        assertThat(report.issues()).anySatisfy(issue -> assertThat(issue.message()).contains("'undefined'", "not defined"));
        assertThat(report.issues()).anySatisfy(issue -> {
            assertThat(issue.pointer()).isEqualTo("/States/unreferenced");
            assertThat(issue.message()).contains("defined but not referenced");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validFlows")
    void shouldAcceptTheInputSchemaOfEveryValidFlow(Path flow) {
        Fixtures.companion(flow, ".schema.json").ifPresent(schema ->
                assertThat(InputSchemas.checkSchema(Fixtures.read(schema))).isEmpty());
    }

    @Test
    void shouldRefuseTheEndToEndExampleInputBecauseItHasAPropertyItsSchemaForbids() {
        // manifest: the 018 input carries destination_path_parent_dir although additionalProperties is false
        Path flow = Fixtures.globusFlows().resolve("valid/018-end-to-end-all-providers.json");
        JsonNode schema = Fixtures.read(Fixtures.companion(flow, ".schema.json").orElseThrow());
        JsonNode input = Fixtures.read(Fixtures.companion(flow, ".input.json").orElseThrow());

        assertThat(InputSchemas.validateInput(schema, input))
                .anySatisfy(issue -> assertThat(issue.message()).contains("destination_path_parent_dir"));
    }

    /**
     * Outcome of each flow with an example input, run against providers that succeed and echo their
     * body as details. Two real flows read results that never exist; they fail with States.Runtime
     * naming the state and the path, which is what Globus does too.
     */
    private static final Map<String, String> EXPECTED_FAILURES = Map.of(
            // the real expression_eval provider would return details.loop_done; an echoing one does not
            "003-complex-hello-world.json",
            "state 'CheckCompletion' Choices[0].Variable: path '$.ComputeCompletionOut.details.loop_done' not found",
            // manifest: Choice/Pass paths reference nonexistent results ($.Stage2CheckFilesLsData.details)
            "018-end-to-end-all-providers.json",
            "state 'Stage2LsFailed' Parameters.details.$: path '$.Stage2CheckFilesLsData.details' not found");

    @ParameterizedTest(name = "{0}")
    @MethodSource("validFlowsWithInput")
    void shouldRunEveryValidFlowWithItsExampleInput(Path flow) {
        FlowDefinition definition = validator.validate(Fixtures.read(flow)).flow().orElseThrow();
        JsonNode input = Fixtures.read(Fixtures.companion(flow, ".input.json").orElseThrow());

        RunState state = new FakeProvider(new Interpreter(definition, InterpreterOptions.defaults())).run(input);

        String expectedFailure = EXPECTED_FAILURES.get(flow.getFileName().toString());
        if (expectedFailure == null) {
            assertThat(state.status()).as(state.cause().orElse("")).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(state.output()).isPresent();
        } else {
            assertThat(state.status()).isEqualTo(RunStatus.FAILED);
            assertThat(state.error()).contains("States.Runtime");
            assertThat(state.cause().orElseThrow()).contains(expectedFailure);
        }
    }

    // ---- the expressions real flows use, evaluated in the flow ----

    private FlowDefinition fixture(String name) {
        return validator.validate(Fixtures.read(Fixtures.globusFlows().resolve(name))).flow().orElseThrow();
    }

    @Test
    void shouldCountToTenInTheLoopSetNumberFlow() {
        RunState state = new FakeProvider(new Interpreter(fixture("valid/007-loop-set-number.json"),
                InterpreterOptions.defaults())).run(Fixtures.json("{}"));

        assertThat(state.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(state.output().orElseThrow().at("/state_manager/counter").asInt()).isEqualTo(10);
    }

    @Test
    void shouldEvaluateBackQuotedJsonPathInTheMoveFlowsDeleteItems() {
        Path flow = Fixtures.globusFlows().resolve("valid/015-transfer-mv.json");
        FakeProvider driver = new FakeProvider(new Interpreter(fixture("valid/015-transfer-mv.json"),
                InterpreterOptions.defaults()));

        driver.run(Fixtures.read(Fixtures.companion(flow, ".input.json").orElseThrow()));

        Effect.StartAction delete = driver.started().stream()
                .filter(start -> start.stateName().equals("Delete")).findFirst().orElseThrow();
        assertThat(delete.body().get("items")).isEqualTo(Fixtures.json("['/~/source_folder']"));
        assertThat(delete.body().get("recursive").asBoolean()).isTrue();
    }

    @Test
    void shouldBatchFileNamesWithSlicesAndComprehensionsInTheBatchProcessingFlow() {
        Function<Effect.StartAction, ActionObservation> ls = start -> new ActionObservation("ls-1", "SUCCEEDED",
                Fixtures.json("{'length': 5, 'DATA': [{'name': 'f0'}, {'name': 'f1'}, {'name': 'f2'}, {'name': 'f3'},"
                        + " {'name': 'f4'}]}"), "Done");

        RunState state = new FakeProvider(new Interpreter(fixture("valid/008-loop-batch-processing.json"),
                InterpreterOptions.defaults()), ls).run(Fixtures.json("{'step': 2}"));

        assertThat(state.status()).as(state.cause().orElse("")).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(state.output().orElseThrow().at("/state/batches"))
                .isEqualTo(Fixtures.json("[['f0', 'f1'], ['f2', 'f3'], ['f4']]"));
    }

    @Test
    void shouldBuildTransferAndDeleteItemsWithRstripInTheLoopingBatchedMoveFlow() {
        AtomicInteger listings = new AtomicInteger();
        Function<Effect.StartAction, ActionObservation> provider = start -> {
            if (start.actionUrl().endsWith("/ls")) {
                JsonNode details = listings.getAndIncrement() == 0
                        ? Fixtures.json("{'total': 2, 'DATA': [{'name': 'a.txt'}, {'name': 'b'}]}")
                        : Fixtures.json("{'total': 0, 'DATA': []}");
                return new ActionObservation("ls", "SUCCEEDED", details, "Done");
            }
            return new ActionObservation("task", "SUCCEEDED", start.body(), "Done");
        };
        FakeProvider driver = new FakeProvider(new Interpreter(fixture("valid/019-looping-batched-transfer-delete.json"),
                InterpreterOptions.defaults()), provider);

        RunState state = driver.run(Fixtures.json(
                "{'source': {'id': 'src', 'path': '/data/'}, 'destination': {'id': 'dst', 'path': '/backup'}}"));

        assertThat(state.status()).as(state.cause().orElse("")).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode transfer = driver.started().stream().filter(s -> s.stateName().equals("Transfer")).findFirst()
                .orElseThrow().body();
        assertThat(transfer.get("DATA")).isEqualTo(Fixtures.json("[{'source_path': '/data/a.txt', "
                + "'destination_path': '/backup/a.txt'}, {'source_path': '/data/b', 'destination_path': '/backup/b'}]"));
        JsonNode delete = driver.started().stream().filter(s -> s.stateName().equals("Delete")).findFirst()
                .orElseThrow().body();
        assertThat(delete.get("DATA")).isEqualTo(Fixtures.json("[{'path': '/data/a.txt'}, {'path': '/data/b'}]"));
    }
}
