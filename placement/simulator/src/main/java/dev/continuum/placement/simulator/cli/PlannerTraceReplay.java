package dev.continuum.placement.simulator.cli;

import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.trace.Replayer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code simulate --planner-trace FILE}: replays a trace the planner service recorded ({@code
 * continuum.placement.trace}) with {@link Replayer} — under the recorded configuration, to show that the simulator
 * reproduces every decision, and under each other policy asked for, as a what-if on the same inputs.
 */
final class PlannerTraceReplay {
    /** Mismatches printed before "and N more". */
    static final int SHOWN_MISMATCHES = 5;

    /** What one replay decided: decisions per type, placements per site, and its answers unlike the recording. */
    record Outcome(String policy, boolean recorded, Replayer.Result result, Map<String, Integer> byType,
                   Map<String, Integer> placedBySite) {
    }

    private PlannerTraceReplay() {
    }

    /** The recorded replay first, then one per policy in {@code whatIf} (the recorded one is not repeated). */
    static List<Outcome> run(Path trace, List<String> whatIf) throws IOException {
        List<Outcome> out = new ArrayList<>();
        String[] recordedPolicy = {null};
        out.add(replay(trace, null, recordedPolicy));
        for (String policy : whatIf) {
            if (!policy.equals(recordedPolicy[0])) {
                out.add(replay(trace, policy, recordedPolicy));
            }
        }
        return out;
    }

    private static Outcome replay(Path trace, String policy, String[] recordedPolicy) throws IOException {
        Map<String, Integer> byType = new LinkedHashMap<>();
        for (String type : List.of("placed", "queued", "preempted", "moved", "unplaceable")) {
            byType.put(type, 0);
        }
        Map<String, Integer> bySite = new TreeMap<>();
        Replayer.Result result;
        try (BufferedReader in = Files.newBufferedReader(trace)) {
            result = Replayer.replay(in, c -> {
                recordedPolicy[0] = c.policy();
                return policy == null ? c : c.withPolicy(policy);
            }, d -> {
                byType.merge(type(d), 1, Integer::sum);
                if (d instanceof PlacementDecision.Placed p) {
                    bySite.merge(p.chosen().site(), 1, Integer::sum);
                }
            });
        }
        return new Outcome(policy == null ? recordedPolicy[0] : policy, policy == null, result, byType, bySite);
    }

    private static String type(PlacementDecision d) {
        return switch (d) {
            case PlacementDecision.Placed p -> "placed";
            case PlacementDecision.Queued q -> "queued";
            case PlacementDecision.Preempted p -> "preempted";
            case PlacementDecision.Moved m -> "moved";
            case PlacementDecision.Unplaceable u -> "unplaceable";
        };
    }

    static void print(Path trace, List<Outcome> outcomes, PrintWriter o) {
        Outcome recorded = outcomes.getFirst();
        o.printf(Locale.ROOT, "planner trace: %s (%d inputs, %d decisions recorded under policy %s)%n", trace,
                recorded.result().inputs(), recorded.result().decisions(), recorded.policy());
        o.printf(Locale.ROOT, "%-24s %8s %8s %10s %7s %12s %14s%n", "policy", "placed", "queued", "preempted", "moved",
                "unplaceable", "answers differ");
        for (Outcome x : outcomes) {
            o.printf(Locale.ROOT, "%-24s %8d %8d %10d %7d %12d %14d%n",
                    x.policy() + (x.recorded() ? " (recorded)" : ""), x.byType().get("placed"), x.byType().get("queued"),
                    x.byType().get("preempted"), x.byType().get("moved"), x.byType().get("unplaceable"),
                    x.result().mismatches().size());
        }
        o.println("placed per site under " + recorded.policy() + ": " + recorded.placedBySite());
        List<String> mismatches = recorded.result().mismatches();
        if (mismatches.isEmpty()) {
            o.println("replay under the recorded configuration: every decision identical");
            return;
        }
        o.println("replay under the recorded configuration DIFFERS in " + mismatches.size()
                + (mismatches.size() == 1 ? " answer:" : " answers:"));
        // a mismatch quotes both answers whole: the start says which line and what kind of answer
        mismatches.stream().limit(SHOWN_MISMATCHES)
                .forEach(m -> o.println("  " + (m.length() > 300 ? m.substring(0, 300) + " …" : m)));
        if (mismatches.size() > SHOWN_MISMATCHES) {
            o.println("  and " + (mismatches.size() - SHOWN_MISMATCHES) + " more");
        }
    }
}
