package dev.continuum.bench.engine;

import dev.continuum.bench.measure.DbCost;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LoadReportTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static RunTiming run(String id, long latencyMillis, int logEntries) {
        return new RunTiming(id, "SUCCEEDED", T0, T0.plusMillis(latencyMillis), logEntries);
    }

    @Test
    void shouldHeadlineCompletedRunsPerSecondAndCountFiveTransitionsPerRunWhateverTheLogHolds() {
        LoadReport report = new LoadReport(4, BigDecimal.ZERO, Duration.ofSeconds(2),
                List.of(run("a", 10, 10), run("b", 20, 10)), Optional.empty(), Optional.empty());

        assertThat(report.runsPerSecond()).isEqualTo(1.0);
        assertThat(report.transitions()).isEqualTo(10);
        assertThat(report.table()).startsWith("completed runs/s      1.0");
    }

    @Test
    void shouldChargeOnlyTheEnginesShareOfLatencyToEachAction() {
        // 1.5 s sleep requested, run took 1.52 s: 20 ms of engine time over two actions
        LoadReport report = new LoadReport(1, new BigDecimal("1.5"), Duration.ofSeconds(2),
                List.of(run("a", 1520, 10)), Optional.empty(), Optional.empty());

        assertThat(report.perActionOverhead().p50()).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldDivideDatabaseAndCpuCostsByCompletedRuns() {
        DbCost.Delta db = new DbCost.Reading(130, 900, Map.of(7L, Duration.ofMillis(500)))
                .since(new DbCost.Reading(100, 880, Map.of(7L, Duration.ofMillis(400))));
        LoadReport report = new LoadReport(1, BigDecimal.ZERO, Duration.ofSeconds(1),
                List.of(run("a", 10, 10), run("b", 10, 10)), Optional.of(Duration.ofMillis(70)), Optional.of(db));

        assertThat(report.table()).contains("commits per run       15.00").contains("rows written per run  10.00")
                .contains("engine CPU            35.00 ms per run").contains("PostgreSQL CPU        50.00 ms per run");
    }

    @Test
    void shouldCountABackendThatAppearedDuringThePhaseFromZero() {
        DbCost.Delta db = new DbCost.Reading(0, 0, Map.of(1L, Duration.ofMillis(30), 2L, Duration.ofMillis(20)))
                .since(new DbCost.Reading(0, 0, Map.of(1L, Duration.ofMillis(10))));

        assertThat(db.backendCpu()).isEqualTo(Duration.ofMillis(40));
    }

    @Test
    void shouldShowFailedRunsInTheTableRatherThanHideThem() {
        RunTiming failed = new RunTiming("c", "FAILED", T0, T0.plusMillis(5), 4);
        LoadReport report = new LoadReport(1, BigDecimal.ZERO, Duration.ofSeconds(1),
                List.of(run("a", 10, 10), failed), Optional.empty(), Optional.empty());

        assertThat(report.statuses()).containsEntry("FAILED", 1L).containsEntry("SUCCEEDED", 1L);
        assertThat(report.table()).contains("FAILED=1");
        assertThat(report.transitions()).isEqualTo(5);
    }

    @Test
    void shouldLineSweepRowsUpUnderTheHeaderAndMarkWhatWasNotMeasured() {
        LoadReport report = new LoadReport(64, BigDecimal.ZERO, Duration.ofSeconds(1),
                List.of(run("a", 10, 10)), Optional.empty(), Optional.empty());

        assertThat(report.sweepRow()).hasSameSizeAs(LoadReport.SWEEP_HEADER).endsWith("-\n");
    }
}
