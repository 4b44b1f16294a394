package dev.continuum.engine.app;

import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * Which of a run's pending effects are due, and when it next needs looking at: pure functions of the state. An
 * INACTIVE run has work too: its other branches' timers and polls, and the WaitTime deadline of what it waits on.
 * {@code pollNotBefore} defers the polls of actions whose finish this process will be told of (by token; null for an
 * action polled as scheduled): see {@link RunState#pollAt}.
 */
final class DueWork {

    private DueWork() {}

    static List<Effect> dueEffects(Interpreter interpreter, RunState state, Instant now, Function<String, Instant> pollNotBefore) {
        if (state.status().finished()) {
            return List.of();
        }
        return interpreter.pendingEffects(state).stream().filter(effect -> switch (effect) {
            case Effect.StartAction start -> true;
            case Effect.PollAction poll -> !poll.at().isAfter(now) && due(state, poll, now, pollNotBefore.apply(poll.token()));
            case Effect.ScheduleTimer timer -> !timer.at().isAfter(now);
            default -> false;
        }).toList();
    }

    private static boolean due(RunState state, Effect.PollAction poll, Instant now, Instant notBefore) {
        if (notBefore == null) {
            return true;
        }
        Instant at = state.pollAt(poll.token(), notBefore);
        return at == null || !at.isAfter(now);
    }

    /** When a scanner should next look at the run; null when only an outside event can move it. */
    static Instant wakeAt(Interpreter interpreter, RunState state, Instant now) {
        return wakeAt(interpreter, state, now, token -> null);
    }

    /** As {@link #wakeAt(Interpreter, RunState, Instant)}, with some actions' polls deferred. */
    static Instant wakeAt(Interpreter interpreter, RunState state, Instant now, Function<String, Instant> pollNotBefore) {
        if (state.status().finished()) {
            return null;
        }
        boolean startPending = interpreter.pendingEffects(state).stream().anyMatch(e -> e instanceof Effect.StartAction);
        return startPending ? now : state.nextWakeAt(pollNotBefore).orElse(null);
    }
}
