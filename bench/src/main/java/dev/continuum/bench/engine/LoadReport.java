package dev.continuum.bench.engine;

import dev.continuum.bench.measure.DbCost;
import dev.continuum.bench.measure.FiveStepFlow;
import dev.continuum.bench.measure.Percentiles;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The numbers one load phase produced. The headline is completed runs per second, the one figure that
 * compares with any engine whatever it logs; a transition is a state entered and committed (five per run
 * of the five-step flow), not a log row. Costs are per completed run: commits and rows written in the
 * bench database, CPU of the engine and of the PostgreSQL backends serving it. Per-Action overhead is
 * (run latency − time the providers were asked to take) / actions.
 */
public record LoadReport(int concurrency, BigDecimal sleepSeconds, Duration wallTime, List<RunTiming> runs,
                         Optional<Duration> engineCpu, Optional<DbCost.Delta> db) {

    /** The sweep table's header; {@link #sweepRow()} lines up under it. */
    public static final String SWEEP_HEADER = "%11s %9s %9s %9s %11s %10s %11s %11s%n".formatted(
            "concurrency", "runs/s", "p50 ms", "p99 ms", "commits/run", "rows/run", "engine ms", "pg ms");

    public double runsPerSecond() {
        return finished().size() / seconds();
    }

    /** States entered and committed: five per run that went through the whole flow. */
    public long transitions() {
        return runs.stream().filter(RunTiming::succeeded).count() * FiveStepFlow.STATES;
    }

    public Percentiles latency() {
        return Percentiles.of(finished().stream().map(RunTiming::latencyMillis).toList());
    }

    public Percentiles perActionOverhead() {
        double providerMillis = sleepSeconds.doubleValue() * 1000;
        return Percentiles.of(finished().stream()
                .map(run -> (run.latencyMillis() - providerMillis) / FiveStepFlow.ACTIONS).toList());
    }

    public Map<String, Long> statuses() {
        return runs.stream().collect(Collectors.groupingBy(RunTiming::status, TreeMap::new, Collectors.counting()));
    }

    public Optional<Double> commitsPerRun() {
        return db.map(d -> d.commits() / (double) perRunDivisor());
    }

    public Optional<Double> rowsPerRun() {
        return db.map(d -> d.rowsWritten() / (double) perRunDivisor());
    }

    public Optional<Double> engineMillisPerRun() {
        return engineCpu.map(cpu -> cpu.toNanos() / 1e6 / perRunDivisor());
    }

    public Optional<Double> postgresMillisPerRun() {
        return db.map(d -> d.backendCpu().toNanos() / 1e6 / perRunDivisor());
    }

    /** A fixed-width table for a terminal and for pasting into docs/benchmarks.md. */
    public String table() {
        Percentiles latency = latency();
        Percentiles overhead = perActionOverhead();
        StringBuilder out = new StringBuilder();
        row(out, "completed runs/s", "%.1f".formatted(runsPerSecond()));
        row(out, "flow", "Pass -> Action echo -> Choice -> Action sleep " + sleepSeconds.toPlainString() + " s -> Pass");
        row(out, "runs", runs.size() + " " + statuses());
        row(out, "concurrency", String.valueOf(concurrency));
        row(out, "wall time", "%.2f s".formatted(seconds()));
        row(out, "run latency", "p50 %.1f ms   p99 %.1f ms   max %.1f ms".formatted(latency.p50(), latency.p99(), latency.max()));
        row(out, "per-Action overhead", "p50 %.2f ms   p99 %.2f ms".formatted(overhead.p50(), overhead.p99()));
        row(out, "transitions/s", "%.0f (states entered and committed, %d per run)".formatted(
                transitions() / seconds(), FiveStepFlow.STATES));
        commitsPerRun().ifPresent(c -> row(out, "commits per run", "%.2f (pg_stat_database xact_commit)".formatted(c)));
        rowsPerRun().ifPresent(r -> row(out, "rows written per run", "%.2f (n_tup_ins + n_tup_upd + n_tup_del)".formatted(r)));
        engineMillisPerRun().ifPresent(ms -> row(out, "engine CPU", "%.2f ms per run".formatted(ms)));
        postgresMillisPerRun().ifPresent(ms -> row(out, "PostgreSQL CPU", "%.2f ms per run (backends of the bench database)".formatted(ms)));
        row(out, "log entries per run", "%.1f (the run log's entries, stored one row per turn; not a count to compare engines by)".formatted(
                runs.stream().mapToInt(RunTiming::logEntries).average().orElse(Double.NaN)));
        return out.toString();
    }

    /** One line of the --sweep table; figures that were not measured print as "-". */
    public String sweepRow() {
        Percentiles latency = latency();
        return "%11d %9.1f %9.1f %9.1f %11s %10s %11s %11s%n".formatted(concurrency, runsPerSecond(), latency.p50(),
                latency.p99(), fixed(commitsPerRun()), fixed(rowsPerRun()), fixed(engineMillisPerRun()),
                fixed(postgresMillisPerRun()));
    }

    private static String fixed(Optional<Double> value) {
        return value.map("%.2f"::formatted).orElse("-");
    }

    private List<RunTiming> finished() {
        return runs.stream().filter(run -> run.completionTime() != null).toList();
    }

    private long perRunDivisor() {
        return Math.max(1, finished().size());
    }

    private double seconds() {
        return Math.max(wallTime.toNanos(), 1) / 1e9;
    }

    private static void row(StringBuilder out, String name, String value) {
        out.append("%-22s%s%n".formatted(name, value));
    }
}
