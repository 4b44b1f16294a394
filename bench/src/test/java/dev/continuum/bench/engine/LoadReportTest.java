package dev.continuum.bench.engine;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class LoadReportTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static RunTiming run(String id, long latencyMillis, int logEntries) {
        return new RunTiming(id, "SUCCEEDED", T0, T0.plusMillis(latencyMillis), logEntries);
    }

    @Test
    void shouldCountTransitionsFromRunLogsPerSecondOfWallTime() {
        LoadReport report = new LoadReport(4, BigDecimal.ZERO, Duration.ofSeconds(2),
                List.of(run("a", 10, 10), run("b", 20, 10)), OptionalDouble.empty(), Optional.empty());

        assertThat(report.transitions()).isEqualTo(20);
        assertThat(report.transitionsPerSecond()).isEqualTo(10.0);
        assertThat(report.runsPerSecond()).isEqualTo(1.0);
    }

    @Test
    void shouldChargeOnlyTheEnginesShareOfLatencyToEachAction() {
        // 1.5 s sleep requested, run took 1.52 s: 20 ms of engine time over two actions
        LoadReport report = new LoadReport(1, new BigDecimal("1.5"), Duration.ofSeconds(2),
                List.of(run("a", 1520, 10)), OptionalDouble.empty(), Optional.empty());

        assertThat(report.perActionOverhead().p50()).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldShowFailedRunsInTheTableRatherThanHideThem() {
        RunTiming failed = new RunTiming("c", "FAILED", T0, T0.plusMillis(5), 4);
        LoadReport report = new LoadReport(1, BigDecimal.ZERO, Duration.ofSeconds(1),
                List.of(run("a", 10, 10), failed), OptionalDouble.of(14), Optional.of(Duration.ofMillis(70)));

        assertThat(report.statuses()).containsEntry("FAILED", 1L).containsEntry("SUCCEEDED", 1L);
        assertThat(report.table()).contains("FAILED=1").contains("14 (continuum_transitions_total delta)")
                .contains("35.0 ms per run, 5000 us per transition");
    }
}
