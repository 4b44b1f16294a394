package dev.continuum.engine.support;

import dev.continuum.engine.app.RunDriver;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.RunStatus;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Time-skipping for engine tests, after Temporal's test server: whenever the engine has nothing it
 * can do now, the clock jumps to the next time something becomes due — a Wait's end, a retry, a
 * status poll (and so an Action's WaitTime), the end of a lease held by a dead instance — and the
 * driver is told to look. A run that waits a week in engine time finishes in moments.
 *
 * <p>In a {@code @QuarkusTest}: {@code @Inject TimeSkipper timeSkipper;} then
 * {@code timeSkipper.runUntilDone(runId)}. Time moves only while {@link RunDriver#idle()} and no run
 * is due, so it never jumps under a turn in progress. A provider that finishes on its own real-time
 * timer is not hurried: the engine just keeps polling it in engine time.
 */
@ApplicationScoped
public class TimeSkipper {

    /** Real time a run may take; time skipping makes even week-long runs far shorter. */
    private static final Duration REAL_LIMIT = Duration.ofSeconds(60);
    /** Real time a run may sit with nothing due before it is declared stuck (waiting on an outside event). */
    private static final Duration STUCK_AFTER = Duration.ofSeconds(3);

    private final TestClock clock;
    private final RunDriver driver;
    private final RunStore runs;

    public TimeSkipper(TestClock clock, RunDriver driver, RunStore runs) {
        this.clock = clock;
        this.driver = driver;
        this.runs = runs;
    }

    /** Drives the run, skipping idle time, until it is no longer ACTIVE; returns where it ended. */
    public RunStatus runUntilDone(String runId) {
        return runUntilDone(UUID.fromString(runId));
    }

    public RunStatus runUntilDone(UUID runId) {
        Instant realDeadline = Instant.now().plus(REAL_LIMIT);
        Instant quietSince = null;
        while (Instant.now().isBefore(realDeadline)) {
            RunStatus status = statusOf(runId);
            if (status != RunStatus.ACTIVE) {
                return status;
            }
            if (!quiet()) {
                quietSince = null;
                pause();
                continue;
            }
            Optional<Instant> due = runs.nextDue().await().atMost(Duration.ofSeconds(10));
            if (due.isPresent() && due.get().isAfter(clock.instant()) && quiet()) {
                clock.advanceTo(due.get().plusMillis(1)); // a lease counts as over only strictly after its end
            }
            quietSince = due.isEmpty() ? (quietSince == null ? Instant.now() : quietSince) : null;
            if (quietSince != null && Instant.now().isAfter(quietSince.plus(STUCK_AFTER))) {
                throw new AssertionError("run " + runId + " is ACTIVE with nothing due: it waits for an outside event");
            }
            driver.scan();
            pause();
        }
        throw new AssertionError("run " + runId + " was still " + statusOf(runId) + " after " + REAL_LIMIT + " of real time");
    }

    /** Idle twice a moment apart: work that was just being handed on (a claim, a launch) shows up in between. */
    private boolean quiet() {
        if (!driver.idle()) {
            return false;
        }
        pause();
        return driver.idle();
    }

    private RunStatus statusOf(UUID runId) {
        RunRecord run = runs.find(runId).await().atMost(Duration.ofSeconds(10))
                .orElseThrow(() -> new AssertionError("run " + runId + " does not exist"));
        return run.state().status();
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while skipping time", e);
        }
    }
}
