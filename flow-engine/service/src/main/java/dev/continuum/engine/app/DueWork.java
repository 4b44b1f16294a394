package dev.continuum.engine.app;

import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.List;

/**
 * Which of a run's pending effects are due, and when it next needs looking at: pure functions of the state. An
 * INACTIVE run has work too: its other branches' timers and polls, and the WaitTime deadline of what it waits on.
 */
final class DueWork {

    private DueWork() {}

    static List<Effect> dueEffects(Interpreter interpreter, RunState state, Instant now) {
        if (state.status().finished()) {
            return List.of();
        }
        return interpreter.pendingEffects(state).stream().filter(effect -> switch (effect) {
            case Effect.StartAction start -> true;
            case Effect.PollAction poll -> !poll.at().isAfter(now);
            case Effect.ScheduleTimer timer -> !timer.at().isAfter(now);
            default -> false;
        }).toList();
    }

    /** When a scanner should next look at the run; null when only an outside event can move it. */
    static Instant wakeAt(Interpreter interpreter, RunState state, Instant now) {
        if (state.status().finished()) {
            return null;
        }
        boolean startPending = interpreter.pendingEffects(state).stream().anyMatch(e -> e instanceof Effect.StartAction);
        return startPending ? now : state.nextWakeAt().orElse(null);
    }
}
