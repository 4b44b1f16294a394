package dev.continuum.provider.training.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.placement.core.planner.PlacementDecision;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The reporter with no planner listening (a port just closed): the scheduler's thread is never held up, and the
 * backlog stays within its bound, the oldest decisions dropped and counted. Sending to the real planner is
 * {@code TrainingProviderDecisionsTest} (placement/planner-service).
 */
class DecisionReporterTest {

    @Test
    void shouldNeverHoldUpTheSchedulerAndKeepItsBacklogBoundedWhileThePlannerIsDown() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nobody listens there
        }
        try (DecisionReporter reporter = new DecisionReporter(new PlannerClient(URI.create("http://127.0.0.1:" + port),
                () -> null), 3, Duration.ofSeconds(30))) {
            long started = System.nanoTime();

            for (int i = 0; i < 50; i++) {
                reporter.decided(new PlacementDecision.Queued("job-" + i, "lab/local", 1, List.of("busy")), Instant.now());
            }

            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("50 decisions queued").isLessThan(Duration.ofSeconds(1));
            Awaitility.await("every decision waiting or dropped").atMost(Duration.ofSeconds(10))
                    .until(() -> reporter.waiting() + reporter.dropped() == 50);
            assertThat(reporter.waiting()).as("the bounded backlog and at most the one being tried").isBetween(3, 4);
            assertThat(reporter.dropped()).as("the oldest beyond the bound").isBetween(46L, 47L);
            assertThat(reporter.sent()).isZero();
        }
    }
}
