package dev.continuum.flow.run;

import java.time.Duration;

/**
 * Tuning of the interpreter.
 *
 * @param pollInitial delay before the first status poll of an ACTIVE action
 * @param pollMax longest delay between two polls
 * @param pollBackoffRate factor applied to the delay after each poll
 * @param maxStateBytes largest state document (serialized JSON) a run may hold
 * @param maxTransitionsPerTurn states one interpreter call may enter; the rest wait for the next turn, so a
 *                              looping flow cannot hold the engine (nor, at start, the caller's request)
 * @param maxTransitions states a run may enter in its life (retries included) before it fails with
 *                       States.TransitionLimitExceeded
 */
public record InterpreterOptions(Duration pollInitial, Duration pollMax, double pollBackoffRate, int maxStateBytes,
                                 int maxTransitionsPerTurn, int maxTransitions) {

    /** Step Functions caps a run's history at 25,000 events; a run here enters at most as many states. */
    public static final int DEFAULT_MAX_TRANSITIONS = 25_000;
    /** Enough for a Map of a few hundred items to finish in one turn; a turn's work stays within milliseconds. */
    public static final int DEFAULT_MAX_TRANSITIONS_PER_TURN = 1_000;

    public InterpreterOptions {
        if (pollInitial.isNegative() || pollMax.compareTo(pollInitial) < 0 || pollBackoffRate < 1.0
                || maxStateBytes <= 0 || maxTransitionsPerTurn <= 0 || maxTransitions <= 0) {
            throw new IllegalArgumentException("need 0 <= pollInitial <= pollMax, pollBackoffRate >= 1, maxStateBytes > 0,"
                    + " maxTransitionsPerTurn > 0, maxTransitions > 0");
        }
    }

    /** With the default transition limits. */
    public InterpreterOptions(Duration pollInitial, Duration pollMax, double pollBackoffRate, int maxStateBytes) {
        this(pollInitial, pollMax, pollBackoffRate, maxStateBytes, DEFAULT_MAX_TRANSITIONS_PER_TURN,
                DEFAULT_MAX_TRANSITIONS);
    }

    /** Poll after 1 s, then 2 s, 4 s ... up to 10 min; state documents up to 1 MiB; the default transition limits. */
    public static InterpreterOptions defaults() {
        return new InterpreterOptions(Duration.ofSeconds(1), Duration.ofMinutes(10), 2.0, 1024 * 1024);
    }

    public InterpreterOptions withTransitionLimits(int perTurn, int perRun) {
        return new InterpreterOptions(pollInitial, pollMax, pollBackoffRate, maxStateBytes, perTurn, perRun);
    }
}
