package dev.continuum.flow.run;

import static dev.continuum.flow.run.InterpreterTest.interpreter;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.flow.testing.FakeProvider;
import dev.continuum.flow.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parallel and Map: Continuum's additions beyond Globus Flows, with Amazon States Language semantics. */
class ParallelAndMapTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    @Test
    void shouldRunParallelBranchesConcurrentlyAndCollectOutputsInBranchOrder() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Both', 'States': {'Both': {'Type': 'Parallel', 'ResultPath': '$.results', 'End': true,
                 'Branches': [
                  {'StartAt': 'A', 'States': {'A': {'Type': 'Action', 'ActionUrl': 'https://a.example.org',
                    'Parameters': {'v.$': '$.v'}, 'ResultPath': '$.a', 'End': true}}},
                  {'StartAt': 'B', 'States': {'B': {'Type': 'Pass', 'Result': 'b', 'End': true}}}]}}}""");

        Step step = interpreter.start(Fixtures.json("{'v': 7}"), FakeProvider.context(), T0);
        Effect.StartAction start = InterpreterTest.only(step.effects(), Effect.StartAction.class);
        assertThat(step.state().status()).isEqualTo(RunStatus.ACTIVE);
        assertThat(start.requestId()).isEqualTo("run-1/Both[0]/A/1/0");

        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(start.token(),
                new ActionObservation("a", "SUCCEEDED", Fixtures.json("{'ok': 1}"), null)), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().get("results").get(1).asText()).isEqualTo("b");
        assertThat(step.state().output().orElseThrow().at("/results/0/a/details/ok").asInt()).isEqualTo(1);
        assertThat(step.state().output().orElseThrow().at("/results/0/v").asInt()).isEqualTo(7);
    }

    @Test
    void shouldCancelSiblingActionsAndCatchWhenOneBranchFails() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Both', 'States': {'Both': {'Type': 'Parallel', 'End': true,
                 'Catch': [{'ErrorEquals': ['Boom'], 'Next': 'Recover', 'ResultPath': '$.error'}],
                 'Branches': [
                  {'StartAt': 'Slow', 'States': {'Slow': {'Type': 'Action', 'ActionUrl': 'https://a.example.org',
                    'Parameters': {}, 'End': true}}},
                  {'StartAt': 'Wait', 'States': {'Wait': {'Type': 'Wait', 'Seconds': 5, 'Next': 'Die'},
                    'Die': {'Type': 'Fail', 'Error': 'Boom', 'Cause': 'branch 1 broke'}}}]},
                 'Recover': {'Type': 'Pass', 'End': true}}}""");
        Step step = interpreter.start(Fixtures.json("{}"), FakeProvider.context(), T0);
        Effect.StartAction start = InterpreterTest.only(step.effects(), Effect.StartAction.class);
        Effect.ScheduleTimer timer = InterpreterTest.only(step.effects(), Effect.ScheduleTimer.class);
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(start.token(),
                new ActionObservation("slow-1", "ACTIVE", null, null)), T0);

        step = interpreter.apply(step.state(), new RunEvent.TimerFired(timer.token()), timer.at());

        assertThat(step.effects()).contains(new Effect.CancelAction("https://a.example.org", "slow-1"));
        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().at("/error/Cause").asText()).isEqualTo("branch 1 broke");
    }

    @Test
    void shouldMapItemsWithAtMostMaxConcurrencyRunningAndKeepItemOrder() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Each', 'States': {'Each': {'Type': 'Map', 'ItemsPath': '$.files', 'MaxConcurrency': 2,
                 'ItemSelector': {'name.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index', 'dest.$': '$.dest'},
                 'ResultPath': '$.copied', 'End': true,
                 'Iterator': {'StartAt': 'Copy', 'States': {'Copy': {'Type': 'Action', 'ActionUrl': 'https://t.example.org',
                   'Parameters': {'from.$': '$.name', 'to.$': '$.dest', 'i.$': '$.index'}, 'ResultPath': '$.r', 'End': true}}}}}}""");

        Step step = interpreter.start(Fixtures.json("{'files': ['a', 'b', 'c'], 'dest': '/d'}"), FakeProvider.context(), T0);
        List<Effect.StartAction> first = step.effects().stream().map(Effect.StartAction.class::cast).toList();
        assertThat(first).extracting(s -> s.body().get("from").asText()).containsExactly("a", "b");
        // the log says how many items there are before any has finished (the web UI counts the pending ones)
        assertThat(step.log()).filteredOn(e -> e.code().equals("MapStarted"))
                .extracting(e -> e.details().get("items").asInt()).containsExactly(3);

        // finish the second item first: the third starts, the order of results still follows the items
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(first.get(1).token(),
                new ActionObservation("b", "SUCCEEDED", null, null)), T0);
        Effect.StartAction third = InterpreterTest.only(step.effects(), Effect.StartAction.class);
        assertThat(third.body()).isEqualTo(Fixtures.json("{'from': 'c', 'to': '/d', 'i': 2}"));
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(third.token(),
                new ActionObservation("c", "SUCCEEDED", null, null)), T0);
        step = interpreter.apply(step.state(), new RunEvent.ActionStarted(first.get(0).token(),
                new ActionObservation("a", "SUCCEEDED", null, null)), T0);

        assertThat(step.state().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(step.state().output().orElseThrow().get("copied").findValuesAsText("action_id"))
                .containsExactly("a", "b", "c");
    }

    @Test
    void shouldPlaceAnEmptyListWhenMapHasNoItems() {
        Step step = interpreter("""
                {'StartAt': 'Each', 'States': {'Each': {'Type': 'Map', 'ItemsPath': '$.none', 'ResultPath': '$.out',
                 'End': true, 'ItemProcessor': {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'End': true}}}}}}""")
                .start(Fixtures.json("{'none': []}"), FakeProvider.context(), T0);

        assertThat(step.state().output().orElseThrow().get("out")).isEqualTo(Fixtures.json("[]"));
    }

    @Test
    void shouldFailWithStatesRuntimeWhenItemsPathIsNotAList() {
        Step step = interpreter("""
                {'StartAt': 'Each', 'States': {'Each': {'Type': 'Map', 'ItemsPath': '$.one', 'End': true,
                 'Iterator': {'StartAt': 'P', 'States': {'P': {'Type': 'Pass', 'End': true}}}}}}""")
                .start(Fixtures.json("{'one': 1}"), FakeProvider.context(), T0);

        assertThat(step.state().error()).contains("States.Runtime");
        assertThat(step.state().cause().orElseThrow()).contains("state 'Each'", "ItemsPath", "list");
    }

    @Test
    void shouldReplayStartActionsOfEveryRunningBranchAfterACrash() {
        Interpreter interpreter = interpreter("""
                {'StartAt': 'Each', 'States': {'Each': {'Type': 'Map', 'End': true,
                 'Iterator': {'StartAt': 'Call', 'States': {'Call': {'Type': 'Action', 'ActionUrl': 'https://t.example.org',
                   'Parameters': {'item.$': '$'}, 'End': true}}}}}}""");
        Step step = interpreter.start(Fixtures.json("[1, 2, 3]"), FakeProvider.context(), T0);

        List<Effect> replay = interpreter.pendingEffects(RunState.fromJson(step.state().toJson()));

        assertThat(replay).containsExactlyInAnyOrderElementsOf(step.effects()).hasSize(3);
    }
}
