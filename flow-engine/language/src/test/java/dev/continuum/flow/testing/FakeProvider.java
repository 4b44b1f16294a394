package dev.continuum.flow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.RunContext;
import dev.continuum.flow.run.RunEvent;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.Step;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * Drives an interpreter the way the engine would, with action providers faked in memory: every
 * StartAction is answered by {@code answer} (by default SUCCEEDED with details echoing the body),
 * timers fire when due. Time only moves when a timer is due, never by sleeping.
 */
public final class FakeProvider {

    private final Interpreter interpreter;
    private final Function<Effect.StartAction, ActionObservation> answer;
    private final List<Effect.StartAction> started = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private Instant now = Instant.parse("2025-01-01T00:00:00Z");

    public FakeProvider(Interpreter interpreter) {
        this(interpreter, start -> new ActionObservation("action-" + start.requestId(), "SUCCEEDED", start.body(),
                "Done"));
    }

    public FakeProvider(Interpreter interpreter, Function<Effect.StartAction, ActionObservation> answer) {
        this.interpreter = interpreter;
        this.answer = answer;
    }

    public static RunContext context() {
        return new RunContext("run-1", "flow-1", 1, "user-1", "test run", List.of("test"));
    }

    /** Starts a run and feeds it events until it finishes or nothing more can happen; at most 10,000 steps. */
    public RunState run(JsonNode input) {
        Step step = interpreter.start(input, context(), now);
        steps.add(step);
        RunState state = step.state();
        Deque<Effect> pending = new ArrayDeque<>(step.effects());
        int budget = 10_000;
        while (!state.status().finished() && budget-- > 0) {
            Effect effect = pending.poll();
            if (effect == null) {
                break;
            }
            RunEvent event = switch (effect) {
                case Effect.StartAction start -> {
                    started.add(start);
                    yield new RunEvent.ActionStarted(start.token(), answer.apply(start));
                }
                case Effect.ScheduleTimer timer -> {
                    if (timer.at().isAfter(now)) {
                        now = timer.at();
                    }
                    yield new RunEvent.TimerFired(timer.token());
                }
                case Effect.PollAction poll -> {
                    if (poll.at().isAfter(now)) {
                        now = poll.at();
                    }
                    yield new RunEvent.ActionPolled(poll.token(),
                            new ActionObservation(poll.actionId(), "SUCCEEDED", null, "Done"));
                }
                default -> null;
            };
            if (event == null) {
                continue;
            }
            Step next = interpreter.apply(state, event, now);
            steps.add(next);
            state = next.state();
            pending.addAll(next.effects());
        }
        return state;
    }

    public List<Effect.StartAction> started() {
        return started;
    }

    public List<Step> steps() {
        return steps;
    }

    public Duration elapsed() {
        return Duration.between(Instant.parse("2025-01-01T00:00:00Z"), now);
    }
}
