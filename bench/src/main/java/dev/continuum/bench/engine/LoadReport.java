package dev.continuum.bench.engine;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The numbers one load run produced. Transitions are counted from the runs' own logs (every log
 * entry is one committed transition); the engine's Prometheus counter is shown beside them as a
 * cross-check. Per-Action overhead is (run latency − time the providers were asked to take) / actions.
 */
public record LoadReport(int concurrency, BigDecimal sleepSeconds, Duration wallTime, List<RunTiming> runs,
                         OptionalDouble counterDelta, Optional<Duration> engineCpu) {

    public long transitions() {
        return runs.stream().mapToLong(RunTiming::logEntries).sum();
    }

    public double transitionsPerSecond() {
        return transitions() / seconds();
    }

    public double runsPerSecond() {
        return runs.size() / seconds();
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

    /** A fixed-width table for a terminal and for pasting into docs/benchmarks.md. */
    public String table() {
        Percentiles latency = latency();
        Percentiles overhead = perActionOverhead();
        StringBuilder out = new StringBuilder();
        out.append("flow            Pass -> Action echo -> Choice -> Action sleep ").append(sleepSeconds.toPlainString())
                .append(" s -> Pass\n");
        row(out, "runs", runs.size() + " " + statuses());
        row(out, "concurrency", String.valueOf(concurrency));
        row(out, "wall time", "%.2f s".formatted(seconds()));
        row(out, "transitions", transitions() + " (from run logs)"
                + (counterDelta.isPresent() ? ", %.0f (continuum_transitions_total delta)".formatted(counterDelta.getAsDouble()) : ""));
        row(out, "transitions/s", "%.0f".formatted(transitionsPerSecond()));
        row(out, "runs/s", "%.1f".formatted(runsPerSecond()));
        row(out, "run latency", "p50 %.1f ms   p99 %.1f ms   max %.1f ms".formatted(latency.p50(), latency.p99(), latency.max()));
        row(out, "per-Action overhead", "p50 %.2f ms   p99 %.2f ms".formatted(overhead.p50(), overhead.p99()));
        engineCpu.ifPresent(cpu -> row(out, "engine CPU", "%.2f s = %.1f ms per run, %.0f us per transition".formatted(
                cpu.toNanos() / 1e9, cpu.toNanos() / 1e6 / Math.max(1, runs.size()),
                cpu.toNanos() / 1e3 / Math.max(1, transitions()))));
        return out.toString();
    }

    private List<RunTiming> finished() {
        return runs.stream().filter(run -> run.completionTime() != null).toList();
    }

    private double seconds() {
        return Math.max(wallTime.toNanos(), 1) / 1e9;
    }

    private static void row(StringBuilder out, String name, String value) {
        out.append("%-22s%s%n".formatted(name, value));
    }
}
