package dev.continuum.flow.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.testing.FakeProvider;
import dev.continuum.flow.testing.Fixtures;
import dev.continuum.flow.validation.FlowValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A flow cannot hold the engine: one call enters a bounded number of states, and a run a bounded number in all. */
class TransitionLimitsTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    /** Log codes written once per state entered by the flows below. */
    private static final Set<String> ENTERED = Set.of("PassCompleted", "ChoiceCompleted", "ParallelStarted");

    /** P -> C -> P for ever: the Choice's rule never holds. */
    private static final String ENDLESS_LOOP = """
            {'StartAt': 'P', 'States': {
             'P': {'Type': 'Pass', 'Next': 'C'},
             'C': {'Type': 'Choice', 'Choices': [{'Variable': '$.done', 'BooleanEquals': true, 'Next': 'Done'}],
              'Default': 'P'},
             'Done': {'Type': 'Pass', 'End': true}}}""";

    private static final String SEVEN_PASSES = """
            {'StartAt': 'P1', 'States': {
             'P1': {'Type': 'Pass', 'Result': 1, 'ResultPath': '$.p1', 'Next': 'P2'},
             'P2': {'Type': 'Pass', 'Result': 2, 'ResultPath': '$.p2', 'Next': 'P3'},
             'P3': {'Type': 'Pass', 'Result': 3, 'ResultPath': '$.p3', 'Next': 'P4'},
             'P4': {'Type': 'Pass', 'Result': 4, 'ResultPath': '$.p4', 'Next': 'P5'},
             'P5': {'Type': 'Pass', 'Result': 5, 'ResultPath': '$.p5', 'Next': 'P6'},
             'P6': {'Type': 'Pass', 'Result': 6, 'ResultPath': '$.p6', 'Next': 'P7'},
             'P7': {'Type': 'Pass', 'Result': 7, 'ResultPath': '$.p7', 'End': true}}}""";

    private static Interpreter interpreter(String definition, int perTurn, int perRun) {
        return new Interpreter(new FlowValidator().validate(Fixtures.json(definition)).flow().orElseThrow(),
                InterpreterOptions.defaults().withTransitionLimits(perTurn, perRun));
    }

    private static long entered(Step step) {
        return step.log().stream().filter(entry -> ENTERED.contains(entry.code())).count();
    }

    /** Drives a run as the engine does: store the state, fire every due timer, one call per event. */
    private static List<Step> drive(Interpreter interpreter) {
        List<Step> steps = new ArrayList<>();
        Step step = interpreter.start(Fixtures.json("{'done': false}"), FakeProvider.context(), T0);
        steps.add(step);
        while (!step.state().status().finished()) {
            RunState stored = RunState.fromJson(step.state().toJson());
            List<Effect> due = interpreter.pendingEffects(stored);
            assertThat(due).as("a run that is not finished has a timer due now").isNotEmpty()
                    .allSatisfy(effect -> assertThat(((Effect.ScheduleTimer) effect).at()).isEqualTo(T0));
            for (Effect effect : due) {
                step = interpreter.apply(stored, new RunEvent.TimerFired(((Effect.ScheduleTimer) effect).token()), T0);
                steps.add(step);
                stored = step.state();
            }
        }
        return steps;
    }

    @Test
    void shouldStopAtThePerTurnBudgetAndWakeAtOnceWhenAFlowEntersMoreStatesThanOneTurnAllows() {
        Step first = interpreter(SEVEN_PASSES, 3, 1_000).start(Fixtures.json("{}"), FakeProvider.context(), T0);

        assertThat(first.state().status()).isEqualTo(RunStatus.ACTIVE);
        assertThat(first.state().currentStates()).containsExactly("P4");
        assertThat(entered(first)).isEqualTo(3);
        assertThat(first.effects()).singleElement().isInstanceOfSatisfying(Effect.ScheduleTimer.class,
                timer -> assertThat(timer.at()).isEqualTo(T0));
        assertThat(first.state().nextWakeAt()).contains(T0);
    }

    @Test
    void shouldFinishWithTheSameOutputOverSeveralTurnsAsInOne() {
        Step inOne = interpreter(SEVEN_PASSES, 1_000, 1_000).start(Fixtures.json("{'done': false}"),
                FakeProvider.context(), T0);

        List<Step> turns = drive(interpreter(SEVEN_PASSES, 3, 1_000));

        assertThat(turns).extracting(TransitionLimitsTest::entered).containsExactly(3L, 3L, 1L);
        Step last = turns.get(turns.size() - 1);
        assertThat(last.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(last.state().output()).isEqualTo(inOne.state().output());
    }

    @Test
    void shouldShareOneTurnBudgetBetweenTheBranchesOfAParallelState() {
        String parallel = """
                {'StartAt': 'Both', 'States': {'Both': {'Type': 'Parallel', 'End': true, 'Branches': [
                  {'StartAt': 'A1', 'States': {'A1': {'Type': 'Pass', 'Next': 'A2'}, 'A2': {'Type': 'Pass', 'Next': 'A3'},
                   'A3': {'Type': 'Pass', 'End': true}}},
                  {'StartAt': 'B1', 'States': {'B1': {'Type': 'Pass', 'Next': 'B2'}, 'B2': {'Type': 'Pass', 'Next': 'B3'},
                   'B3': {'Type': 'Pass', 'End': true}}}]}}}""";

        List<Step> turns = drive(interpreter(parallel, 2, 1_000));

        // 7 states in all (Both, A1..A3, B1..B3); the first turn enters Both and A1, and B1 waits with A2
        assertThat(entered(turns.get(0))).isEqualTo(2);
        assertThat(turns.get(0).state().currentStates()).containsExactlyInAnyOrder("Both", "A2", "B1");
        assertThat(interpreter(parallel, 2, 1_000).pendingEffects(turns.get(0).state()))
                .as("one timer resumes both branches").hasSize(1);
        assertThat(turns).allSatisfy(step -> assertThat(entered(step)).isLessThanOrEqualTo(2));
        assertThat(turns.stream().mapToLong(TransitionLimitsTest::entered).sum()).isEqualTo(7);
        Step last = turns.get(turns.size() - 1);
        assertThat(last.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(last.state().output().orElseThrow()).hasSize(2);
    }

    @Test
    void shouldFailWithTransitionLimitExceededWhenAPassChoiceLoopNeverLeaves() {
        List<Step> turns = drive(interpreter(ENDLESS_LOOP, 4, 10));

        RunState last = turns.get(turns.size() - 1).state();
        assertThat(last.status()).isEqualTo(RunStatus.FAILED);
        assertThat(last.error()).contains(ErrorNames.TRANSITION_LIMIT_EXCEEDED);
        assertThat(last.cause().orElseThrow()).contains("over the limit of 10 states entered per run");
        assertThat(turns.stream().mapToLong(TransitionLimitsTest::entered).sum()).isEqualTo(10);
        assertThat(turns).allSatisfy(step -> assertThat(entered(step)).isLessThanOrEqualTo(4));
    }

    @Test
    void shouldNotLetACatchHandleTransitionLimitExceeded() {
        String caught = """
                {'StartAt': 'Guard', 'States': {
                 'Guard': {'Type': 'Parallel', 'Next': 'Done', 'Branches': [%s],
                  'Catch': [{'ErrorEquals': ['States.ALL'], 'Next': 'Done'}]},
                 'Done': {'Type': 'Pass', 'End': true}}}""".formatted(ENDLESS_LOOP);

        List<Step> turns = drive(interpreter(caught, 1_000, 50));

        RunState last = turns.get(turns.size() - 1).state();
        assertThat(last.status()).isEqualTo(RunStatus.FAILED);
        assertThat(last.error()).contains(ErrorNames.TRANSITION_LIMIT_EXCEEDED);
    }

    @Test
    void shouldEndARunawayAfter25000StatesWithTheDefaultLimits() {
        Interpreter defaults = new Interpreter(new FlowValidator().validate(Fixtures.json(ENDLESS_LOOP)).flow().orElseThrow(),
                InterpreterOptions.defaults());

        List<Step> turns = drive(defaults);

        // 25 turns of 1,000 states; the 25th ends the run when it would enter state 25,001
        assertThat(turns.get(turns.size() - 1).state().error()).contains(ErrorNames.TRANSITION_LIMIT_EXCEEDED);
        assertThat(turns.size()).isEqualTo(InterpreterOptions.DEFAULT_MAX_TRANSITIONS
                / InterpreterOptions.DEFAULT_MAX_TRANSITIONS_PER_TURN);
    }
}
