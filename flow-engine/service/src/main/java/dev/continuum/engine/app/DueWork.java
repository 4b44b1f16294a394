package dev.continuum.engine.app;

import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.RunState;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A run's state with its pending effects, and from them which are due and when the run next needs looking at: pure
 * functions of the state. A turn asks several of these of one state (what is due, which actions it awaits, when to
 * wake, and after the commit what is due again); the pending effects are derived once per state, not per question
 * (issue 17: that derivation was most of the driver's own bookkeeping). An INACTIVE run has work too: its other
 * branches' timers and polls, and the WaitTime deadline of what it waits on. {@code pollNotBefore} defers the polls of
 * actions whose finish this process will be told of (by token; null for an action polled as scheduled): see
 * {@link RunState#pollAt}.
 *
 * @param pending {@link Interpreter#pendingEffects} of {@code state}; not changed
 */
record DueWork(RunState state, List<Effect> pending) {

    static DueWork of(Interpreter interpreter, RunState state) {
        return new DueWork(state, interpreter.pendingEffects(state));
    }

    List<Effect> dueEffects(Instant now, Function<String, Instant> pollNotBefore) {
        if (state.status().finished()) {
            return List.of();
        }
        return pending.stream().filter(effect -> switch (effect) {
            case Effect.StartAction start -> true;
            case Effect.PollAction poll -> !poll.at().isAfter(now) && due(poll, now, pollNotBefore.apply(poll.token()));
            case Effect.ScheduleTimer timer -> !timer.at().isAfter(now);
            default -> false;
        }).toList();
    }

    private boolean due(Effect.PollAction poll, Instant now, Instant notBefore) {
        if (notBefore == null) {
            return true;
        }
        Instant at = state.pollAt(poll.token(), notBefore);
        return at == null || !at.isAfter(now);
    }

    /** The tokens of the started actions the run waits on (and polls). */
    Set<String> awaitedActions() {
        Set<String> awaited = new HashSet<>();
        for (Effect effect : pending) {
            if (effect instanceof Effect.PollAction poll) {
                awaited.add(poll.token());
            }
        }
        return awaited;
    }

    /** When a scanner should next look at the run; null when only an outside event can move it. */
    Instant wakeAt(Instant now) {
        return wakeAt(now, token -> null);
    }

    /** As {@link #wakeAt(Instant)}, with some actions' polls deferred. */
    Instant wakeAt(Instant now, Function<String, Instant> pollNotBefore) {
        if (state.status().finished()) {
            return null;
        }
        boolean startPending = pending.stream().anyMatch(e -> e instanceof Effect.StartAction);
        return startPending ? now : state.nextWakeAt(pollNotBefore).orElse(null);
    }
}
