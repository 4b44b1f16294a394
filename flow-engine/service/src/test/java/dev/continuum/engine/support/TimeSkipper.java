package dev.continuum.engine.support;

import dev.continuum.engine.app.RunDriver;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.testkit.TimeSkipping;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.UUID;

/**
 * The test kit's {@link TimeSkipping} for the engine: whenever the engine has nothing it
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

    private final RunStore runs;
    private final TimeSkipping skipping;

    public TimeSkipper(TestClock clock, RunDriver driver, RunStore runs) {
        this.runs = runs;
        this.skipping = new TimeSkipping(clock, driver::idle, () -> runs.nextDue().await().atMost(Duration.ofSeconds(10)),
                driver::scan, REAL_LIMIT, STUCK_AFTER);
    }

    /** Drives the run, skipping idle time, until it is no longer ACTIVE; returns where it ended. */
    public RunStatus runUntilDone(String runId) {
        return runUntilDone(UUID.fromString(runId));
    }

    public RunStatus runUntilDone(UUID runId) {
        skipping.until("the end of run " + runId, () -> statusOf(runId) != RunStatus.ACTIVE);
        return statusOf(runId);
    }

    private RunStatus statusOf(UUID runId) {
        RunRecord run = runs.find(runId).await().atMost(Duration.ofSeconds(10))
                .orElseThrow(() -> new AssertionError("run " + runId + " does not exist"));
        return run.state().status();
    }
}
