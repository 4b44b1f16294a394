package dev.continuum.flow.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.testing.FakeProvider;
import dev.continuum.flow.testing.Fixtures;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.ValidationReport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Behaviour of each state type and of action life cycles, driven through the public interpreter API. */
class InterpreterTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final RunContext CONTEXT = FakeProvider.context();

    static Interpreter interpreter(String definition) {
        ValidationReport report = new FlowValidator().validate(Fixtures.json(definition));
        assertThat(report.issues()).as("test flow is valid").isEmpty();
        return new Interpreter(report.flow().orElseThrow(), InterpreterOptions.defaults());
    }

    static FlowDefinition flow(String definition) {
        return new FlowValidator().validate(Fixtures.json(definition)).flow().orElseThrow();
    }

    static <T extends Effect> T only(List<Effect> effects, Class<T> type) {
        List<T> found = effects.stream().filter(type::isInstance).map(type::cast).toList();
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    static ActionObservation observed(String status, String details) {
        return new ActionObservation("a-1", status, Fixtures.json(details), status.toLowerCase());
    }

    private static final String ONE_ACTION = """
            {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org/run',
              'Parameters': {'path.$': '$.input.path', 'n': 1}, 'ResultPath': '$.out', 'WaitTime': 3600, 'End': true}}}""";

    // ---- Pass, Choice, ExpressionEval, Fail, Wait ----

    @Test
    void shouldPlacePassParametersAtResultPathAndSucceedWithoutEffects() {
        Step step = interpreter("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Parameters': {'copy.$': '$.a', 'k': 'v'},
                 'ResultPath': '$.r', 'End': true}}}""").start(Fixtures.json("{'a': [1, 2]}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output()).contains(Fixtures.json("{'a': [1, 2], 'r': {'copy': [1, 2], 'k': 'v'}}"));
        assertThat(step.effects()).isEmpty();
        assertThat(step.log()).extracting(LogEntry::code).containsExactly("FlowStarted", "PassCompleted", "FlowSucceeded");
    }

    @Test
    void shouldReplaceTheWholeDocumentWhenResultPathIsDollarDot() {
        Step step = interpreter("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Result': {'only': true}, 'ResultPath': '$.',
                 'End': true}}}""").start(Fixtures.json("{'a': 1}"), CONTEXT, T0);

        assertThat(step.state().output()).contains(Fixtures.json("{'only': true}"));
    }

    @Test
    void shouldExposeTheRunContextToPathsAndExpressions() {
        Step step = interpreter("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Parameters': {'run.$': '$._context.run_id',
                 'user.$': '$$.username', 'label.=': '_context.label + \\"!\\"'}, 'ResultPath': '$.r', 'End': true}}}""")
                .start(Fixtures.json("{}"), CONTEXT, T0);

        assertThat(step.state().output().orElseThrow().get("r"))
                .isEqualTo(Fixtures.json("{'run': 'run-1', 'user': 'user-1', 'label': 'test run!'}"));
    }

    @Test
    void shouldFollowTheFirstMatchingChoiceAndOtherwiseTheDefault() {
        String definition = """
                {'StartAt': 'C', 'States': {
                 'C': {'Type': 'Choice', 'Choices': [
                   {'And': [{'Variable': '$.n', 'NumericGreaterThan': 5}, {'Not': {'Variable': '$.s', 'StringEquals': 'x'}}],
                    'Next': 'Big'},
                   {'Variable': '$.s', 'StringMatches': 'log-*.txt', 'Next': 'Log'}],
                  'Default': 'Other'},
                 'Big': {'Type': 'Pass', 'Result': 'big', 'ResultPath': '$.r', 'End': true},
                 'Log': {'Type': 'Pass', 'Result': 'log', 'ResultPath': '$.r', 'End': true},
                 'Other': {'Type': 'Pass', 'Result': 'other', 'ResultPath': '$.r', 'End': true}}}""";
        Interpreter interpreter = interpreter(definition);

        assertThat(interpreter.start(Fixtures.json("{'n': 9, 's': 'y'}"), CONTEXT, T0).state().output().orElseThrow()
                .get("r").asText()).isEqualTo("big");
        assertThat(interpreter.start(Fixtures.json("{'n': 1, 's': 'log-1.txt'}"), CONTEXT, T0).state().output()
                .orElseThrow().get("r").asText()).isEqualTo("log");
        assertThat(interpreter.start(Fixtures.json("{'n': 1, 's': 'z'}"), CONTEXT, T0).state().output().orElseThrow()
                .get("r").asText()).isEqualTo("other");
    }

    @Test
    void shouldCompareAgainstAnotherPathAndTestTypes() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'C', 'States': {
                 'C': {'Type': 'Choice', 'Choices': [
                   {'Or': [{'Variable': '$.a', 'NumericLessThanPath': '$.b'}, {'Variable': '$.t', 'IsTimestamp': true}],
                    'Next': 'Yes'}, {'Variable': '$.missing', 'IsPresent': false, 'Next': 'No'}]},
                 'Yes': {'Type': 'Pass', 'Result': 'yes', 'ResultPath': '$.r', 'End': true},
                 'No': {'Type': 'Pass', 'Result': 'no', 'ResultPath': '$.r', 'End': true}}}""");

        assertThat(interpreter.start(Fixtures.json("{'a': 1, 'b': 2, 't': 0}"), CONTEXT, T0).state().output()
                .orElseThrow().get("r").asText()).isEqualTo("yes");
        assertThat(interpreter.start(Fixtures.json("{'a': 3, 'b': 2, 't': '2024-08-18T17:33:00Z'}"), CONTEXT, T0)
                .state().output().orElseThrow().get("r").asText()).isEqualTo("yes");
        assertThat(interpreter.start(Fixtures.json("{'a': 3, 'b': 2, 't': 'no'}"), CONTEXT, T0).state().output()
                .orElseThrow().get("r").asText()).isEqualTo("no");
    }

    @Test
    void shouldFailRunWhenChoiceHasNoMatchAndNoDefault() {
        Step step = interpreter("""
                {'StartAt': 'C', 'States': {'C': {'Type': 'Choice', 'Choices': [
                 {'Variable': '$.n', 'NumericEquals': 1, 'Next': 'E'}]}, 'E': {'Type': 'Pass', 'End': true}}}""")
                .start(Fixtures.json("{'n': 2}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("States.NoChoiceMatched");
    }

    @Test
    void shouldFailWithStatesRuntimeNamingStateAndPathWhenChoiceVariableIsMissing() {
        Step step = interpreter("""
                {'StartAt': 'C', 'States': {'C': {'Type': 'Choice', 'Choices': [
                 {'Variable': '$.status', 'StringEquals': 'OK', 'Next': 'E'}], 'Default': 'E'},
                 'E': {'Type': 'Pass', 'End': true}}}""").start(Fixtures.json("{}"), CONTEXT, T0);

        assertThat(step.state().error()).contains("States.Runtime");
        assertThat(step.state().cause().orElseThrow()).contains("state 'C'", "'$.status'", "not found");
    }

    @Test
    void shouldFailWithStatesRuntimeWhenAParameterPathIsMissing() {
        Step step = interpreter(ONE_ACTION).start(Fixtures.json("{'input': {}}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("States.Runtime");
        assertThat(step.state().cause()).contains(
                "state 'Call' Parameters.path.$: path '$.input.path' not found in the state input");
        assertThat(step.effects()).isEmpty();
    }

    @Test
    void shouldEvaluateExpressionEvalParametersIntoResultPath() {
        Step step = interpreter("""
                {'StartAt': 'E', 'States': {'E': {'Type': 'ExpressionEval',
                 'Parameters': {'sum.=': 'a + b', 'names': [{'first.=': 'name.upper()'}]}, 'ResultPath': '$.r', 'End': true}}}""")
                .start(Fixtures.json("{'a': 2, 'b': 3, 'name': 'ada'}"), CONTEXT, T0);

        assertThat(step.state().output().orElseThrow().get("r"))
                .isEqualTo(Fixtures.json("{'sum': 5, 'names': [{'first': 'ADA'}]}"));
        assertThat(step.log()).extracting(LogEntry::code).contains("ExpressionEvalCompleted");
    }

    @Test
    void shouldFailWithErrorAndCauseReadThroughErrorPathAndCausePath() {
        Step step = interpreter("""
                {'StartAt': 'F', 'States': {'F': {'Type': 'Fail', 'ErrorPath': '$.e', 'CausePath': '$.c'}}}""")
                .start(Fixtures.json("{'e': 'Broken', 'c': 'because'}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("Broken");
        assertThat(step.state().cause()).contains("because");
        assertThat(step.log()).extracting(LogEntry::code).endsWith("FlowFailed");
    }

    @Test
    void shouldWaitUntilTheTimerFiresAndIgnoreAnEarlierUnknownToken() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'SecondsPath': '$.delay', 'Next': 'P'},
                 'P': {'Type': 'Pass', 'End': true}}}""");
        Step started = interpreter.start(Fixtures.json("{'delay': 90}"), CONTEXT, T0);
        Effect.ScheduleTimer timer = only(started.effects(), Effect.ScheduleTimer.class);

        Step stale = interpreter.apply(started.state(), new RunEvent.TimerFired("nope"), T0.plusSeconds(5));
        Step fired = interpreter.apply(started.state(), new RunEvent.TimerFired(timer.token()), timer.at());

        assertThat(timer.at()).isEqualTo(T0.plusSeconds(90));
        assertThat(started.state().nextWakeAt()).contains(T0.plusSeconds(90));
        assertThat(stale.state().toJson()).isEqualTo(started.state().toJson());
        assertThat(stale.effects()).isEmpty();
        assertThat(fired.state().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void shouldPassThroughAZeroSecondWaitAndAPastTimestampInOneStep() {
        Step step = interpreter("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 0, 'Next': 'X'},
                 'X': {'Type': 'Wait', 'Timestamp': '2020-01-01T00:00:00Z', 'End': true}}}""")
                .start(Fixtures.json("{}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.effects()).isEmpty();
    }

    @Test
    void shouldReadAWaitsSecondsPathThroughItsInputPathAndPassOnWhatItsOutputPathSelects() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'InputPath': '$.job', 'SecondsPath': '$.delay',
                 'OutputPath': '$.result', 'End': true}}}""");
        Step started = interpreter.start(Fixtures.json("{'job': {'delay': 30, 'result': {'ok': true}}, 'other': 1}"),
                CONTEXT, T0);
        Effect.ScheduleTimer timer = only(started.effects(), Effect.ScheduleTimer.class);

        Step fired = interpreter.apply(started.state(), new RunEvent.TimerFired(timer.token()), timer.at());

        assertThat(timer.at()).isEqualTo(T0.plusSeconds(30));
        assertThat(fired.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(fired.state().output()).contains(Fixtures.json("{'ok': true}"));
    }

    @Test
    void shouldFailTheRunNamingTheWaitAndItsOutputPathWhenThePathIsMissing() {
        Step step = interpreter("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 0, 'OutputPath': '$.absent', 'End': true}}}""")
                .start(Fixtures.json("{'a': 1}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("States.Runtime");
        assertThat(step.state().cause()).hasValueSatisfying(cause -> assertThat(cause).contains("'W'", "OutputPath"));
    }

    // ---- Action life cycle ----

    @Test
    void shouldStartActionWithEvaluatedBodyAndPlaceTheWholeStatusAtResultPath() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step started = interpreter.start(Fixtures.json("{'input': {'path': '/data'}}"), CONTEXT, T0);
        Effect.StartAction start = only(started.effects(), Effect.StartAction.class);

        Step done = interpreter.apply(started.state(),
                new RunEvent.ActionStarted(start.token(), observed("SUCCEEDED", "{'files': 3}")), T0.plusSeconds(1));

        assertThat(start.body()).isEqualTo(Fixtures.json("{'path': '/data', 'n': 1}"));
        assertThat(start.actionUrl()).isEqualTo("https://p.example.org/run");
        assertThat(start.requestId()).isEqualTo("run-1/Call/1/0");
        assertThat(start.label()).isEqualTo("test run");
        assertThat(done.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.state().output().orElseThrow().get("out")).isEqualTo(Fixtures.json(
                "{'action_id': 'a-1', 'status': 'SUCCEEDED', 'display_status': 'succeeded', 'details': {'files': 3}}"));
        assertThat(done.effects()).containsExactly(new Effect.ReleaseAction("https://p.example.org/run", "a-1"));
    }

    @Test
    void shouldApplyATurnsEventsTogetherAsOneAfterTheOtherAndLeaveTheCallersStateAlone() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step started = interpreter.start(Fixtures.json("{'input': {'path': '/data'}}"), CONTEXT, T0);
        String token = only(started.effects(), Effect.StartAction.class).token();
        String before = started.state().toJsonText();
        List<RunEvent> events = List.of(new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")),
                new RunEvent.ActionPolled("no-such-token", observed("FAILED", "{}")),
                new RunEvent.ActionPolled(token, observed("SUCCEEDED", "{'files': 3}")));
        Instant now = T0.plusSeconds(1);

        Step together = interpreter.applyAll(started.state(), events, now);
        Step oneByOne = started;
        List<Effect> effects = new java.util.ArrayList<>();
        List<LogEntry> log = new java.util.ArrayList<>();
        for (RunEvent event : events) {
            oneByOne = interpreter.apply(oneByOne.state(), event, now);
            effects.addAll(oneByOne.effects());
            log.addAll(oneByOne.log());
        }

        assertThat(together.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(together.state().toJsonText()).isEqualTo(oneByOne.state().toJsonText());
        assertThat(together.effects()).isEqualTo(effects).isNotEmpty();
        assertThat(together.log()).isEqualTo(log).isNotEmpty();
        assertThat(started.state().toJsonText()).as("the caller's state is not changed").isEqualTo(before);
        assertThat(interpreter.applyAll(started.state(), List.of(), now).state()).isSameAs(started.state());
    }

    @Test
    void shouldPollActiveActionsWithExponentialBackoffCappedAtPollMax() {
        Interpreter interpreter = new Interpreter(flow(ONE_ACTION), new InterpreterOptions(Duration.ofSeconds(1),
                Duration.ofSeconds(5), 2.0, 1 << 20));
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        Instant now = T0;
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), now);
        List<Long> delays = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Effect.PollAction poll = only(step.effects(), Effect.PollAction.class);
            delays.add(Duration.between(now, poll.at()).toSeconds());
            assertThat(step.state().nextWakeAt()).contains(poll.at());
            now = poll.at();
            step = interpreter.apply(step.state(), new RunEvent.ActionPolled(token, observed("ACTIVE", "{}")), now);
        }

        assertThat(delays).containsExactly(1L, 2L, 4L, 5L, 5L);
    }

    @Test
    void shouldListAnAcceptedActionAsRunningUntilItFinishes() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        assertThat(interpreter.runningActions(step.state(), T0)).as("not accepted by its provider yet").isEmpty();

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), T0);
        assertThat(interpreter.runningActions(step.state(), T0))
                .extracting(a -> a.stateName(), a -> a.poll().token(), a -> a.poll().actionUrl(), a -> a.poll().actionId())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Call", token, "https://p.example.org/run", "a-1"));

        step = interpreter.apply(step.state(), new RunEvent.ActionPolled(token, observed("SUCCEEDED", "{}")), T0.plusSeconds(1));
        assertThat(interpreter.runningActions(step.state(), T0)).isEmpty();
    }

    @Test
    void shouldCancelAndRaiseActionTimeoutWhenWaitTimeElapsesWhileActive() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'WaitTime': 10, 'Catch': [{'ErrorEquals': ['ActionTimeout'], 'Next': 'Late',
                 'ResultPath': '$.err'}], 'End': true}, 'Late': {'Type': 'Pass', 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), T0);
        Instant now = T0;
        while (step.state().status() == RunStatus.ACTIVE) {
            Effect.PollAction poll = only(step.effects(), Effect.PollAction.class);
            assertThat(poll.at()).isBeforeOrEqualTo(T0.plusSeconds(10));
            now = poll.at();
            step = interpreter.apply(step.state(), new RunEvent.ActionPolled(token, observed("ACTIVE", "{}")), now);
        }

        assertThat(now).isEqualTo(T0.plusSeconds(10));
        assertThat(step.effects()).contains(new Effect.CancelAction("https://p.example.org", "a-1"));
        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().at("/err/Error").asText()).isEqualTo("ActionTimeout");
    }

    @Test
    void shouldStartANewAttemptInTheChosenStateWithEditedInputWhenAFailedRunIsRedriven() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Check', 'States': {'Check': {'Type': 'Choice', 'Choices': [{'Variable': '$.ok',
                 'BooleanEquals': true, 'Next': 'Done'}], 'Default': 'Broken'}, 'Broken': {'Type': 'Fail', 'Error': 'NotOk'},
                 'Done': {'Type': 'Pass', 'End': true}}}""");
        Step failed = interpreter.start(Fixtures.json("{'ok': false}"), CONTEXT, T0);
        assertThat(failed.state().status()).isEqualTo(RunStatus.FAILED);

        Step again = interpreter.redrive(failed.state(), "Check", Fixtures.json("{'ok': true}"), T0.plusSeconds(5));

        assertThat(again.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(again.state().error()).isEmpty();
        assertThat(again.log().get(0).code()).isEqualTo("FlowRedriven");
        assertThat(again.log().get(0).details().path("attempt").asInt()).isEqualTo(2);
        Step sameInput = interpreter.redrive(failed.state(), null, null, T0.plusSeconds(6));
        assertThat(sameInput.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(sameInput.log().get(0).stateName()).isEqualTo("Broken");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> interpreter.redrive(again.state(), "Check", null, T0))
                .isInstanceOf(IllegalStateException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> interpreter.redrive(failed.state(), "Nowhere", null, T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Nowhere");
    }

    @Test
    void shouldCancelATimedOutActionOnceWhenNothingCatchesTheTimeout() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'WaitTime': 10, 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), T0);
        while (step.state().status() == RunStatus.ACTIVE) {
            Effect.PollAction poll = only(step.effects(), Effect.PollAction.class);
            step = interpreter.apply(step.state(), new RunEvent.ActionPolled(token, observed("ACTIVE", "{}")), poll.at());
        }

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("ActionTimeout");
        assertThat(step.effects()).containsOnlyOnce(new Effect.CancelAction("https://p.example.org", "a-1"))
                .filteredOn(Effect.CancelAction.class::isInstance).hasSize(1);
    }

    @Test
    void shouldRaiseActionFailedExceptionThatACatchHandles() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'Catch': [{'ErrorEquals': ['States.ALL'], 'Next': 'Handle', 'ResultPath': '$.err'}],
                 'End': true}, 'Handle': {'Type': 'Pass', 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("FAILED", "{'why': 'disk'}")), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode error = step.state().output().orElseThrow().get("err");
        assertThat(error.get("Error").asText()).isEqualTo("ActionFailedException");
        assertThat(error.get("Cause").asText()).contains("disk");
        assertThat(step.log()).extracting(LogEntry::code).contains("ActionFailed", "StateCaught");
    }

    @Test
    void shouldStoreAFailedResultAndContinueWhenExceptionOnActionFailureIsFalse() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'ExceptionOnActionFailure': false, 'ResultPath': '$.r', 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("FAILED", "{}")), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().at("/r/status").asText()).isEqualTo("FAILED");
    }

    @Test
    void shouldFailTheRunWithTheActionErrorWhenNothingCatchesIt() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();

        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(token, "ActionUnableToRun", "HTTP 403"), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("ActionUnableToRun");
        assertThat(step.state().cause()).hasValueSatisfying(cause -> assertThat(cause).contains("'Call'", "HTTP 403"));
        assertThat(step.state().failedState()).contains("Call");
    }

    @Test
    void shouldRetryWithBackoffAndANewRequestIdThenSucceed() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'Retry': [{'ErrorEquals': ['ActionUnableToRun'], 'IntervalSeconds': 2,
                 'BackoffRate': 3, 'MaxAttempts': 2}], 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        Effect.StartAction first = only(step.effects(), Effect.StartAction.class);

        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(first.token(), "ActionUnableToRun", "503"), T0);
        Effect.ScheduleTimer firstDelay = only(step.effects(), Effect.ScheduleTimer.class);
        step = interpreter.apply(step.state(), new RunEvent.TimerFired(firstDelay.token()), firstDelay.at());
        Effect.StartAction second = only(step.effects(), Effect.StartAction.class);
        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(second.token(), "ActionUnableToRun", "503"),
                firstDelay.at());
        Effect.ScheduleTimer secondDelay = only(step.effects(), Effect.ScheduleTimer.class);
        step = interpreter.apply(step.state(), new RunEvent.TimerFired(secondDelay.token()), secondDelay.at());
        Effect.StartAction third = only(step.effects(), Effect.StartAction.class);
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(third.token(), observed("SUCCEEDED", "{}")),
                secondDelay.at());

        assertThat(firstDelay.at()).isEqualTo(T0.plusSeconds(2));
        assertThat(Duration.between(firstDelay.at(), secondDelay.at())).isEqualTo(Duration.ofSeconds(6));
        assertThat(List.of(first.requestId(), second.requestId(), third.requestId()))
                .containsExactly("run-1/Call/1/0", "run-1/Call/1/1", "run-1/Call/1/2");
        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void shouldGiveUpAfterMaxAttemptsAndLetTheCatchHandleIt() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'Retry': [{'ErrorEquals': ['States.ALL'], 'MaxAttempts': 1, 'MaxDelaySeconds': 1,
                 'IntervalSeconds': 30}], 'Catch': [{'ErrorEquals': ['States.TaskFailed'], 'Next': 'Gave up'}],
                 'End': true}, 'Gave up': {'Type': 'Pass', 'Result': 'caught', 'ResultPath': '$.r', 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(
                only(step.effects(), Effect.StartAction.class).token(), "ActionUnableToRun", "x"), T0);
        Effect.ScheduleTimer delay = only(step.effects(), Effect.ScheduleTimer.class);
        step = interpreter.apply(step.state(), new RunEvent.TimerFired(delay.token()), delay.at());
        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(
                only(step.effects(), Effect.StartAction.class).token(), "ActionUnableToRun", "x"), delay.at());

        assertThat(delay.at()).isEqualTo(T0.plusSeconds(1)); // MaxDelaySeconds caps IntervalSeconds
        assertThat(step.state().output().orElseThrow().get("r").asText()).isEqualTo("caught");
    }

    @Test
    void shouldJitterRetryDelaysDeterministicallyWithinTheFullDelay() {
        String definition = """
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {}, 'Retry': [{'ErrorEquals': ['States.ALL'], 'IntervalSeconds': 100,
                 'JitterStrategy': 'FULL'}], 'End': true}}}""";
        Instant first = retryAt(interpreter(definition));
        Instant again = retryAt(interpreter(definition));

        assertThat(first).isEqualTo(again).isBetween(T0, T0.plusSeconds(100));
    }

    private static Instant retryAt(Interpreter interpreter) {
        Step step = interpreter.start(Fixtures.json("{}"), CONTEXT, T0);
        step = interpreter.apply(step.state(), new RunEvent.ActionCallFailed(
                only(step.effects(), Effect.StartAction.class).token(), "ActionUnableToRun", "x"), T0);
        return only(step.effects(), Effect.ScheduleTimer.class).at();
    }

    @Test
    void shouldGoInactiveOnAnInactiveActionAndPollAgainWhenResumed() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token,
                new ActionObservation("a-1", "INACTIVE", Fixtures.json("{}"), "Consent required")), T0);
        assertThat(step.state().status()).isEqualTo(RunStatus.INACTIVE);
        assertThat(step.state().inactiveReason()).contains("Consent required");
        // Not polled while INACTIVE, except once at the WaitTime deadline, which bounds an INACTIVE action too.
        Effect.PollAction atDeadline = new Effect.PollAction(token, "https://p.example.org/run", "a-1", T0.plusSeconds(3600));
        assertThat(step.effects()).containsExactly(atDeadline);
        assertThat(interpreter.pendingEffects(step.state())).containsExactly(atDeadline);

        Step resumed = interpreter.apply(step.state(), new RunEvent.ResumeRequested(), T0.plusSeconds(60));
        assertThat(resumed.state().status()).isEqualTo(RunStatus.ACTIVE);
        assertThat(resumed.effects()).containsExactly(
                new Effect.PollAction(token, "https://p.example.org/run", "a-1", T0.plusSeconds(60)));
        assertThat(resumed.log()).extracting(LogEntry::code).containsExactly("FlowResumed");
    }

    @Test
    void shouldWaitInactiveWithTheReasonWhenNoTokenCanBeHadAndStartTheActionAgainOnResume() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        Effect.StartAction start = only(step.effects(), Effect.StartAction.class);

        step = interpreter.apply(step.state(), new RunEvent.ConsentRequired(start.token(), "Sign in again"), T0);
        assertThat(step.state().status()).isEqualTo(RunStatus.INACTIVE);
        assertThat(step.state().inactiveReason()).contains("Sign in again");
        assertThat(step.state().nextWakeAt()).isEmpty();
        assertThat(step.log()).extracting(LogEntry::code).containsExactly("FlowInactive");

        Step resumed = interpreter.apply(step.state(), new RunEvent.ResumeRequested(), T0.plusSeconds(60));
        assertThat(resumed.state().status()).isEqualTo(RunStatus.ACTIVE);
        assertThat(interpreter.pendingEffects(resumed.state())).containsExactly(start);
    }

    @Test
    void shouldIgnoreAConsentRequestForAnActionTheRunNoLongerWaitsOn() {
        Step step = interpreter(ONE_ACTION).apply(
                interpreter(ONE_ACTION).start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0).state(),
                new RunEvent.ConsentRequired("no-such-token", "Sign in again"), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.ACTIVE);
        assertThat(step.log()).isEmpty();
    }

    @Test
    void shouldCancelRunningActionsAndEndTheRunWhenCancelled() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), T0);

        Step cancelled = interpreter.apply(step.state(), new RunEvent.CancelRequested("user asked"), T0.plusSeconds(3));
        Step late = interpreter.apply(cancelled.state(), new RunEvent.ActionPolled(token, observed("SUCCEEDED", "{}")),
                T0.plusSeconds(4));

        assertThat(cancelled.state().status()).isEqualTo(RunStatus.ENDED);
        assertThat(cancelled.effects()).containsExactly(new Effect.CancelAction("https://p.example.org/run", "a-1"));
        assertThat(cancelled.log()).extracting(LogEntry::code).containsExactly("FlowCanceled");
        assertThat(late.state().status()).isEqualTo(RunStatus.ENDED);
        assertThat(late.effects()).isEmpty();
    }

    @Test
    void shouldRedactPrivateParametersInLogsButSendThemToTheProvider() {
        Step step = interpreter("""
                {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org',
                 'Parameters': {'user': 'ada', 'password.$': '$.secret', '__Private_Parameters': ['password'],
                 'items': [{'token': 't0k3n', '__Private_Parameters': ['token']}]}, 'End': true}}}""")
                .start(Fixtures.json("{'secret': 'hunter2'}"), CONTEXT, T0);

        Effect.StartAction start = only(step.effects(), Effect.StartAction.class);
        assertThat(start.body()).isEqualTo(Fixtures.json(
                "{'user': 'ada', 'password': 'hunter2', 'items': [{'token': 't0k3n'}]}"));
        String logged = step.log().toString();
        assertThat(logged).doesNotContain("hunter2").doesNotContain("t0k3n").contains("ada");
    }

    @Test
    void shouldLogTheStartInputInFlowStartedUnlessTheFlowNamesPrivateParameters() {
        Step plain = interpreter("{'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'End': true}}}")
                .start(Fixtures.json("{'sample': 'S-17'}"), CONTEXT, T0);
        Step privateInMap = interpreter("""
                {'StartAt': 'M', 'States': {'M': {'Type': 'Map', 'ItemsPath': '$.items', 'End': true, 'Iterator':
                 {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Parameters': {'k.$': '$', '__Private_Parameters': ['k']},
                 'End': true}}}}}}""").start(Fixtures.json("{'items': ['hunter2']}"), CONTEXT, T0);

        assertThat(plain.log().get(0).details()).isEqualTo(Fixtures.json("{'input': {'sample': 'S-17'}}"));
        assertThat(privateInMap.log().get(0).details()).isEqualTo(Fixtures.json("{'input_withheld': true}"));
    }

    @Test
    void shouldFailWithDataLimitExceededWhenTheStateDocumentGrowsTooLarge() {
        Interpreter interpreter = new Interpreter(flow("""
                {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'Parameters': {'a.$': '$.big', 'b.$': '$.big'},
                 'ResultPath': '$.copy', 'End': true}}}"""), new InterpreterOptions(Duration.ofSeconds(1),
                Duration.ofSeconds(1), 1.0, 2_000));

        Step step = interpreter.start(Fixtures.json("{'big': '" + "x".repeat(900) + "'}"), CONTEXT, T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("States.DataLimitExceeded");
        assertThat(step.state().cause().orElseThrow()).contains("state 'P'", "2000 bytes");
    }

    private static final String PASS_THROUGH = "{'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'End': true}}}";

    /** A state document with characters of one to four UTF-8 bytes: the limit counts bytes, not characters. */
    private static final JsonNode MIXED_TEXT = Fixtures.json("{'text': 'a é € 😀 " + "x".repeat(100) + "'}");

    private static Step passThroughWithLimit(int maxStateBytes) {
        return new Interpreter(flow(PASS_THROUGH), new InterpreterOptions(Duration.ofSeconds(1), Duration.ofSeconds(1), 1.0,
                maxStateBytes)).start(MIXED_TEXT, CONTEXT, T0);
    }

    @Test
    void shouldMoveOnWhenTheStateDocumentIsExactlyAtTheLimit() {
        int size = MIXED_TEXT.toString().getBytes(StandardCharsets.UTF_8).length;

        Step step = passThroughWithLimit(size);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output()).contains(MIXED_TEXT);
    }

    @Test
    void shouldFailNamingTheDocumentsSizeWhenItIsOneByteOverTheLimit() {
        int size = MIXED_TEXT.toString().getBytes(StandardCharsets.UTF_8).length;

        Step step = passThroughWithLimit(size - 1);

        assertThat(step.state().status()).isEqualTo(RunStatus.FAILED);
        assertThat(step.state().error()).contains("States.DataLimitExceeded");
        assertThat(step.state().cause()).contains("state 'P' produced a state document of " + size
                + " bytes, over the limit of " + (size - 1) + " bytes");
    }

    // ---- durability ----

    @Test
    void shouldReissueTheSameStartActionAfterACrashFromTheStoredState() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        Effect.StartAction original = only(step.effects(), Effect.StartAction.class);

        RunState restored = RunState.fromJson(Fixtures.JSON.valueToTree(step.state().toJson()));
        List<Effect> replay = new Interpreter(flow(ONE_ACTION), InterpreterOptions.defaults()).pendingEffects(restored);

        assertThat(replay).containsExactly(original);
        Step done = interpreter.apply(restored, new RunEvent.ActionStarted(original.token(), observed("SUCCEEDED", "{}")),
                T0);
        assertThat(done.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        Step duplicate = interpreter.apply(done.state(),
                new RunEvent.ActionStarted(original.token(), observed("SUCCEEDED", "{}")), T0);
        assertThat(duplicate.effects()).isEmpty();
    }

    @Test
    void shouldReissueScheduledPollsAndTimersAfterACrash() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{}")), T0);

        List<Effect> replay = interpreter.pendingEffects(RunState.fromJson(step.state().toJson()));

        assertThat(replay).containsExactly(only(step.effects(), Effect.PollAction.class));
    }

    @Test
    void shouldRoundTripTheRunStateThroughJsonExactly() {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p'}}"), CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{'p': 1}")), T0);

        JsonNode stored = step.state().toJson();
        RunState restored = RunState.fromJson(stored);

        assertThat(restored.toJson()).isEqualTo(stored);
        assertThat(restored.status()).isEqualTo(step.state().status());
        assertThat(restored.nextWakeAt()).isEqualTo(step.state().nextWakeAt());
    }

    @Test
    void shouldStoreTheRunStateAsTextThatReadsBackToTheSameState() throws Exception {
        Interpreter interpreter = interpreter(ONE_ACTION);
        Step step = interpreter.start(Fixtures.json("{'input': {'path': '/p', 'n': 1.50, 'big': 12345678901234567890}}"),
                CONTEXT, T0);
        String token = only(step.effects(), Effect.StartAction.class).token();
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(token, observed("ACTIVE", "{'p': [1, {'q': null}]}")),
                T0);

        String text = step.state().toJsonText();
        RunState restored = RunState.fromJsonText(text);

        assertThat(Fixtures.JSON.readTree(text)).isEqualTo(step.state().toJson());
        assertThat(restored.toJson()).isEqualTo(step.state().toJson());
        assertThat(interpreter.pendingEffects(restored)).isEqualTo(interpreter.pendingEffects(step.state()));
    }

    @Test
    void shouldRunEveryStateOfAFlowAgainstTheFakeProviderWithoutSleeping() {
        FakeProvider driver = new FakeProvider(interpreter("""
                {'StartAt': 'W', 'States': {'W': {'Type': 'Wait', 'Seconds': 604800, 'Next': 'Call'},
                 'Call': {'Type': 'Action', 'ActionUrl': 'https://p.example.org', 'Parameters': {'x': 1}, 'End': true}}}"""));

        RunState state = driver.run(Fixtures.json("{}"));

        assertThat(state.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(driver.elapsed()).isEqualTo(Duration.ofDays(7));
    }
}
