package dev.continuum.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Time-skipping after Temporal's test server: whenever the system under test has nothing it can do now, the
 * {@link VirtualClock} jumps to the next moment something becomes due, and the system is told to look. What waits a
 * week of virtual time is over in moments of real time. Time moves only while the system is idle, twice a moment
 * apart, so it never jumps under work in progress. Each system brings its three questions: is it idle, what is due
 * next, and how to make it look now.
 */
public final class TimeSkipping {

    /** The loop's pace, and the moment between two looks at idleness: work being handed on shows up in between. */
    private static final Duration PACE = Duration.ofMillis(2);

    private final VirtualClock clock;
    private final BooleanSupplier idle;
    private final Supplier<Optional<Instant>> nextDue;
    private final Runnable look;
    private final Duration realLimit;
    private final Duration stuckAfter;

    /**
     * @param realLimit  real time the awaited thing may take (skipping makes even week-long waits far shorter)
     * @param stuckAfter real time with nothing due before the wait is declared stuck (it waits on an outside event)
     */
    public TimeSkipping(VirtualClock clock, BooleanSupplier idle, Supplier<Optional<Instant>> nextDue, Runnable look,
                       Duration realLimit, Duration stuckAfter) {
        this.clock = clock;
        this.idle = idle;
        this.nextDue = nextDue;
        this.look = look;
        this.realLimit = realLimit;
        this.stuckAfter = stuckAfter;
    }

    /** Skips idle time until {@code done}; {@code what} names the awaited thing in the failure. */
    public void until(String what, BooleanSupplier done) {
        Instant realDeadline = Instant.now().plus(realLimit);
        Instant quietSince = null;
        while (Instant.now().isBefore(realDeadline)) {
            if (done.getAsBoolean()) {
                return;
            }
            if (!quiet()) {
                quietSince = null;
                pace();
                continue;
            }
            Optional<Instant> due = nextDue.get();
            if (due.isPresent() && due.get().isAfter(clock.instant()) && quiet()) {
                clock.advanceTo(due.get().plusMillis(1)); // a lease counts as over only strictly after its end
            }
            quietSince = due.isEmpty() ? (quietSince == null ? Instant.now() : quietSince) : null;
            if (quietSince != null && Instant.now().isAfter(quietSince.plus(stuckAfter))) {
                throw new AssertionError("waiting for " + what + " with nothing due: it waits for an outside event");
            }
            look.run();
            pace();
        }
        throw new AssertionError(what + " did not happen within " + realLimit.toSeconds() + " s of real time");
    }

    private boolean quiet() {
        if (!idle.getAsBoolean()) {
            return false;
        }
        pace();
        return idle.getAsBoolean();
    }

    /** Paces the loop in real time (the moment apart), so it is a sleep, not a wait for a condition. */
    private static void pace() {
        try {
            Thread.sleep(PACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while skipping time", e);
        }
    }
}
