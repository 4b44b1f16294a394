package dev.continuum.flow.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.WaitState;
import dev.continuum.flow.testing.Fixtures;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Validation errors not covered by the Globus fixtures; each names its JSON pointer. */
class FlowValidatorTest {

    private final FlowValidator validator = new FlowValidator();

    private ValidationReport validate(String definition) {
        return validator.validate(Fixtures.json(definition));
    }

    private static void assertIssue(ValidationReport report, String pointer, String words) {
        assertThat(report.valid()).isFalse();
        assertThat(report.issues()).anySatisfy(issue -> {
            assertThat(issue.pointer()).isEqualTo(pointer);
            assertThat(issue.message()).contains(words);
        });
    }

    @Test
    void shouldApplyGlobusDefaultsToAnActionState() {
        ActionState action = (ActionState) validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Action', 'ActionUrl': 'https://x.example.org',
                 'InputPath': '$.body', 'End': true}}}""").flow().orElseThrow().state("A");

        assertThat(action.waitTime()).isEqualTo(Duration.ofSeconds(300));
        assertThat(action.exceptionOnActionFailure()).isTrue();
        assertThat(action.paths().resultPath()).isEqualTo("$");
    }

    @Test
    void shouldRefuseAJsonPathOfTwentyThousandStepsInsteadOfOverflowingTheStack() {
        String bomb = "$" + "..a".repeat(20_000);

        assertIssue(validate("{'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Parameters': {'x.$': '" + bomb + "'}, 'End': true}}}"),
                "/States/A/Parameters/x.$", "characters long; a JSONPath may have at most");
        assertIssue(validate("{'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Parameters': {'x.$': '$" + "..a".repeat(1_000)
                + "'}, 'End': true}}}"), "/States/A/Parameters/x.$", "steps");
    }

    @Test
    void shouldRefuseADanglingNextAndName() {
        assertIssue(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'Nowhere'}}}"""),
                "/States/A/Next", "'Nowhere' is referenced but not defined");
    }

    @Test
    void shouldRefuseADanglingCatchNextAndChoiceDefault() {
        ValidationReport report = validate("""
                {'StartAt': 'C', 'States': {
                 'C': {'Type': 'Choice', 'Choices': [{'Variable': '$.x', 'IsNull': true, 'Next': 'A'}], 'Default': 'Gone'},
                 'A': {'Type': 'Action', 'ActionUrl': 'https://x.example.org', 'Parameters': {}, 'End': true,
                   'Catch': [{'ErrorEquals': ['States.ALL'], 'Next': 'Missing'}]}}}""");

        assertIssue(report, "/States/C/Default", "'Gone'");
        assertIssue(report, "/States/A/Catch/0/Next", "'Missing'");
    }

    @Test
    void shouldRefuseNextTogetherWithEnd() {
        assertIssue(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'B', 'End': true},
                 'B': {'Type': 'Pass', 'End': true}}}"""), "/States/A/Next", "both Next and End");
    }

    @Test
    void shouldReportOnlyTheMissingStateWhenNextNamesAStateThatDoesNotExist() {
        ValidationReport report = validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'B'}, 'B': {'Type': 'Pass', 'Next': 'Nowhere'}}}""");

        assertThat(report.issues()).containsExactly(
                new ValidationIssue("/States/B/Next", "'Nowhere' is referenced but not defined in States."));
    }

    @Test
    void shouldReportOnlyTheMissingStateWhenAChoiceThatCanLoopAlsoNamesAStateThatDoesNotExist() {
        ValidationReport report = validate("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Next': 'C'},
                 'C': {'Type': 'Choice', 'Choices': [{'Variable': '$.done', 'BooleanEquals': true, 'Next': 'Finish'}],
                  'Default': 'P'}}}""");

        assertThat(report.issues()).containsExactly(
                new ValidationIssue("/States/C/Choices/0/Next", "'Finish' is referenced but not defined in States."));
    }

    @Test
    void shouldReportBothProblemsWhenNextAndEndAreSetAndNextNamesAStateThatDoesNotExist() {
        ValidationReport report = validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'Nowhere', 'End': true}}}""");

        assertThat(report.issues()).containsExactly(
                new ValidationIssue("/States/A/Next", "A state cannot have both Next and End: true; keep one."),
                new ValidationIssue("/States/A/Next", "'Nowhere' is referenced but not defined in States."));
    }

    @Test
    void shouldStillReportALoopWhoseOtherRouteEndsOnlyInAMissingState() {
        ValidationReport report = validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'B'}, 'B': {'Type': 'Pass', 'Next': 'A'},
                 'C': {'Type': 'Pass', 'Next': 'Nowhere'}}}""");

        assertThat(report.issues()).containsExactlyInAnyOrder(
                new ValidationIssue("/States/C/Next", "'Nowhere' is referenced but not defined in States."),
                new ValidationIssue("/States/C",
                        "State 'C' is defined but not referenced by StartAt or by any state reachable from it."),
                new ValidationIssue("/States/A", "State 'A' has no path to an end: every route from it loops "
                        + "without reaching End or a Fail state."),
                new ValidationIssue("/States/B", "State 'B' has no path to an end: every route from it loops "
                        + "without reaching End or a Fail state."));
    }

    @Test
    void shouldRefuseAStateWithNoPathToAnEnd() {
        assertIssue(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'B'}, 'B': {'Type': 'Pass', 'Next': 'A'}}}"""),
                "/States/A", "no path to an end");
    }

    @Test
    void shouldAcceptALoopThatCanLeaveThroughAChoice() {
        assertThat(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Pass', 'Next': 'C'},
                 'C': {'Type': 'Choice', 'Choices': [{'Variable': '$.done', 'BooleanEquals': true, 'Next': 'End'}],
                  'Default': 'A'}, 'End': {'Type': 'Pass', 'End': true}}}""").valid()).isTrue();
    }

    @Test
    void shouldRefuseAnUnknownStateTypeAndAnUnknownField() {
        ValidationReport report = validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Task', 'End': true}, 'B': {'Type': 'Pass', 'OutputPath': '$',
                 'End': true}}}""");

        assertIssue(report, "/States/A/Type", "Unknown state Type 'Task'");
        assertIssue(report, "/States/B/OutputPath", "not a field of a Pass state");
    }

    @Test
    void shouldRefuseABadExpressionWithItsPosition() {
        assertIssue(validate("""
                {'StartAt': 'E', 'States': {'E': {'Type': 'ExpressionEval', 'Parameters': {'x.=': '1 +'},
                 'ResultPath': '$.r', 'End': true}}}"""), "/States/E/Parameters/x.=", "does not parse at position");
    }

    @Test
    void shouldRefuseBadPathsInsideListItemsOfParameters() {
        assertIssue(validate("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Parameters': {'items': [{'a.$': 'oops'}]},
                 'End': true}}}"""), "/States/P/Parameters/items/0/a.$", "not a JSONPath");
    }

    @Test
    void shouldRefuseAWildcardResultPath() {
        assertIssue(validate("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'ResultPath': '$.a[*]', 'End': true}}}"""),
                "/States/P/ResultPath", "single place");
    }

    @Test
    void shouldRequireExactlyOneWayToWait() {
        assertIssue(validate("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 5, 'SecondsPath': '$.s', 'End': true}}}"""),
                "/States/W", "exactly one of Seconds");
        assertIssue(validate("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'End': true}}}"""), "/States/W", "it has none");
        assertIssue(validate("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Timestamp': 'tomorrow', 'End': true}}}"""),
                "/States/W/Timestamp", "RFC 3339");
    }

    @Test
    void shouldAcceptInputPathAndOutputPathOnAWaitState() {
        WaitState wait = (WaitState) validate("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 5, 'InputPath': '$.job',
                 'OutputPath': null, 'End': true}}}""").flow().orElseThrow().state("W");

        assertThat(wait.inputPath()).isEqualTo("$.job");
        assertThat(wait.outputPath()).isNull();
        assertIssue(validate("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 5, 'OutputPath': 'job', 'End': true}}}"""),
                "/States/W/OutputPath", "OutputPath");
    }

    @Test
    void shouldCheckRetryFieldTypes() {
        ValidationReport report = validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Action', 'ActionUrl': 'https://x.example.org',
                 'Parameters': {}, 'End': true, 'Retry': [{'ErrorEquals': ['States.ALL'], 'IntervalSeconds': 'soon',
                 'MaxAttempts': -1, 'BackoffRate': 0.5, 'JitterStrategy': 'SOME', 'Extra': 1}]}}}""");

        assertIssue(report, "/States/A/Retry/0/IntervalSeconds", "whole number");
        assertIssue(report, "/States/A/Retry/0/MaxAttempts", "at least 0");
        assertIssue(report, "/States/A/Retry/0/BackoffRate", "at least 1");
        assertIssue(report, "/States/A/Retry/0/JitterStrategy", "FULL");
        assertIssue(report, "/States/A/Retry/0/Extra", "not a field of a retrier");
    }

    @Test
    void shouldRequireStatesAllToStandAloneInTheLastCatcher() {
        assertIssue(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Action', 'ActionUrl': 'https://x.example.org',
                 'Parameters': {}, 'End': true, 'Catch': [{'ErrorEquals': ['States.ALL', 'X'], 'Next': 'B'}]},
                 'B': {'Type': 'Pass', 'End': true}}}"""), "/States/A/Catch/0/ErrorEquals", "alone");
    }

    @Test
    void shouldCheckTheOperandTypeOfComparisons() {
        ValidationReport report = validate("""
                {'StartAt': 'C', 'States': {'C': {'Type': 'Choice', 'Default': 'E', 'Choices': [
                 {'Variable': '$.n', 'NumericEquals': '1', 'Next': 'E'},
                 {'Variable': '$.b', 'BooleanEquals': 'true', 'Next': 'E'},
                 {'Variable': '$.t', 'TimestampLessThan': 'noon', 'Next': 'E'},
                 {'Variable': 'n', 'StringEqualsPath': 'also-not-a-path', 'Next': 'E'}]},
                 'E': {'Type': 'Pass', 'End': true}}}""");

        assertIssue(report, "/States/C/Choices/0/NumericEquals", "number");
        assertIssue(report, "/States/C/Choices/1/BooleanEquals", "true or false");
        assertIssue(report, "/States/C/Choices/2/TimestampLessThan", "RFC 3339");
        assertIssue(report, "/States/C/Choices/3/Variable", "not a JSONPath");
        assertIssue(report, "/States/C/Choices/3/StringEqualsPath", "not a JSONPath");
    }

    @Test
    void shouldEscapeStateNamesInPointers() {
        assertIssue(validate("""
                {'StartAt': 'a/b', 'States': {'a/b': {'Type': 'Pass', 'Next': 'x~y'}}}"""),
                "/States/a~1b/Next", "'x~y'");
    }

    @Test
    void shouldAcceptBothInputPathAndParametersAsGlobusDocumentsThem() {
        // Globus's own Action example shows InputPath next to Parameters; ASL applies InputPath, then Parameters
        assertThat(validate("""
                {'StartAt': 'A', 'States': {'A': {'Type': 'Action', 'ActionUrl': 'https://x.example.org',
                 'InputPath': '$.sub', 'Parameters': {'v.$': '$.v'}, 'End': true}}}""").valid()).isTrue();
    }

    @Test
    void shouldValidateParallelBranchesAndMapIteratorsAsFlowsOfTheirOwn() {
        ValidationReport report = validate("""
                {'StartAt': 'P', 'States': {
                 'P': {'Type': 'Parallel', 'Next': 'M', 'Branches': [{'StartAt': 'X', 'States': {'X': {'Type': 'Pass'}}}]},
                 'M': {'Type': 'Map', 'End': true, 'MaxConcurrency': -2,
                  'Iterator': {'StartAt': 'Y', 'States': {'Y': {'Type': 'Pass', 'Next': 'P'}}}}}}""");

        assertIssue(report, "/States/P/Branches/0/States/X", "either Next");
        assertIssue(report, "/States/M/Iterator/States/Y/Next", "'P' is referenced but not defined");
        assertIssue(report, "/States/M/MaxConcurrency", "0 (no limit)");
    }

    @Test
    void shouldBuildParallelAndMapStates() {
        var flow = validate("""
                {'StartAt': 'P', 'States': {
                 'P': {'Type': 'Parallel', 'Next': 'M', 'Branches': [{'StartAt': 'X', 'States': {'X': {'Type': 'Pass', 'End': true}}}]},
                 'M': {'Type': 'Map', 'End': true, 'ItemsPath': '$.items', 'MaxConcurrency': 4,
                  'ItemProcessor': {'ProcessorConfig': {'Mode': 'INLINE'}, 'StartAt': 'Y', 'States': {'Y': {'Type': 'Pass', 'End': true}}}}}}""")
                .flow().orElseThrow();

        assertThat(((ParallelState) flow.state("P")).branches()).hasSize(1);
        assertThat(((MapState) flow.state("M")).maxConcurrency()).isEqualTo(4);
        assertThat(((MapState) flow.state("M")).iterator().startAt()).isEqualTo("Y");
    }
}
