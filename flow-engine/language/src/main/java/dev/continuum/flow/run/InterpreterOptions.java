package dev.continuum.flow.run;

import java.time.Duration;

/**
 * Tuning of the interpreter.
 *
 * @param pollInitial delay before the first status poll of an ACTIVE action
 * @param pollMax longest delay between two polls
 * @param pollBackoffRate factor applied to the delay after each poll
 * @param maxStateBytes largest state document (serialized JSON) a run may hold
 */
public record InterpreterOptions(Duration pollInitial, Duration pollMax, double pollBackoffRate, int maxStateBytes) {

    public InterpreterOptions {
        if (pollInitial.isNegative() || pollMax.compareTo(pollInitial) < 0 || pollBackoffRate < 1.0
                || maxStateBytes <= 0) {
            throw new IllegalArgumentException("need 0 <= pollInitial <= pollMax, pollBackoffRate >= 1, maxStateBytes > 0");
        }
    }

    /** Poll after 1 s, then 2 s, 4 s ... up to 10 min; state documents up to 1 MiB. */
    public static InterpreterOptions defaults() {
        return new InterpreterOptions(Duration.ofSeconds(1), Duration.ofMinutes(10), 2.0, 1024 * 1024);
    }
}
