package dev.continuum.placement.simulator.cli;

import dev.continuum.placement.simulator.ContinuumSimulator;
import dev.continuum.placement.simulator.ContinuumSimulator.Arrival;
import dev.continuum.placement.simulator.ContinuumSimulator.Choice;
import dev.continuum.placement.simulator.ContinuumSimulator.Result;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Runs one inference workload under every {@link Choice} and prints them side by side, best p95 first. */
public final class ContinuumComparison {
    private ContinuumComparison() {
    }

    public static Map<Choice, Result> run(ContinuumSimulator.Topology topology, List<Arrival> jobs) {
        return run(topology, jobs, dev.continuum.placement.core.planner.PlannerConfig.DEFAULT);
    }

    /** As {@link #run(ContinuumSimulator.Topology, List)}, the planner under {@code planner} (e.g. its choose-by). */
    public static Map<Choice, Result> run(ContinuumSimulator.Topology topology, List<Arrival> jobs,
                                          dev.continuum.placement.core.planner.PlannerConfig planner) {
        ContinuumSimulator sim = new ContinuumSimulator(topology, planner);
        Map<Choice, Result> results = new EnumMap<>(Choice.class);
        for (Choice c : Choice.values()) {
            results.put(c, sim.run(c, jobs));
        }
        return results;
    }

    /** The policies from lowest to highest p95, ties by p50 then name. */
    public static List<Choice> ranking(Map<Choice, Result> results) {
        return results.values().stream().sorted(Comparator.comparingLong((Result r) -> r.p(0.95))
                .thenComparingLong(r -> r.p(0.5)).thenComparing(r -> r.choice().label()))
                .map(Result::choice).toList();
    }

    public static void print(Map<Choice, Result> results, PrintWriter out) {
        out.printf(Locale.ROOT, "%-16s %10s %10s %8s %22s%n", "policy", "p50", "p95", "SLO met",
                "prediction error p50/p90");
        for (Choice c : ranking(results)) {
            Result r = results.get(c);
            String error = Double.isNaN(r.medianPredictionError()) ? "-" : String.format(Locale.ROOT,
                    "%.1f %% / %.1f %%", 100 * r.medianPredictionError(), 100 * r.predictionError(0.9));
            out.printf(Locale.ROOT, "%-16s %7d ms %7d ms %6.1f %% %22s%n", c.label(), r.p(0.5), r.p(0.95),
                    100 * r.sloAttainment(), error);
        }
        out.println("ranking by p95: " + ranking(results).stream().map(Choice::label).collect(Collectors.joining(" < ")));
        out.flush();
    }
}
