package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** A planner decision log in words: per job, each decision with its time, cause, where, the prediction and why. */
final class PlacementText {

    private PlacementText() {}

    static List<String> lines(JsonNode entries) {
        List<String> out = new ArrayList<>();
        String job = null;
        for (JsonNode e : entries) {
            if (!e.path("id").asText().equals(job)) {
                job = e.path("id").asText();
                out.add(job + " (" + e.path("kind").asText() + (e.hasNonNull("runId") ? ", run " + e.get("runId").asText() : "") + ")");
            }
            JsonNode d = e.path("decision");
            out.add("  " + e.path("at").asText() + "  " + e.path("cause").asText() + " -> " + verdict(e, d));
            decision(d, out);
        }
        return out;
    }

    private static String verdict(JsonNode e, JsonNode d) {
        return switch (e.path("status").asText()) {
            case "placed" -> "placed on " + d.at("/chosen/site").asText() + " (" + d.at("/chosen/target").asText() + ", "
                    + d.at("/chosen/gpus").asInt() + " GPU" + (d.at("/chosen/gpus").asInt() == 1 ? "" : "s") + ")";
            case "queued" -> "queued on " + d.path("site").asText() + " (" + d.path("waitingJobs").asInt() + " jobs waiting)";
            case "preempted" -> "preempted on " + d.path("site").asText();
            case "moved" -> "moved to " + d.at("/to/site").asText() + " (" + d.at("/to/target").asText() + ")";
            default -> "unplaceable";
        };
    }

    private static void decision(JsonNode d, List<String> out) {
        if (d.has("chosen")) {
            JsonNode l = d.at("/chosen/latency");
            out.add("    predicted " + (l.path("transferMillis").asLong() + l.path("queueMillis").asLong()
                    + l.path("computeMillis").asLong()) + " ms = transfer " + l.path("transferMillis").asLong()
                    + " + queue " + l.path("queueMillis").asLong() + " + compute " + l.path("computeMillis").asLong() + " ms");
        }
        for (JsonNode r : d.path("reasons")) {
            out.add("    - " + r.asText());
        }
        d.path("reasonBySite").properties().forEach(s -> out.add("    - " + s.getKey() + ": " + s.getValue().asText()));
        if (d.hasNonNull("reason")) {
            out.add("    - " + d.get("reason").asText());
        }
        for (JsonNode a : d.path("alternatives")) {
            out.add("    alternative " + a.path("site").asText() + ": " + a.path("explanation").asText());
        }
    }

    /** The planner's arrival forecasts in words, per site: rate, interval, method and how it has done lately. */
    static List<String> forecastLines(JsonNode forecasts) {
        List<String> out = new ArrayList<>();
        String site = null;
        for (JsonNode f : forecasts) {
            if (!f.path("site").asText().equals(site)) {
                site = f.path("site").asText();
                out.add("Arrivals expected at " + site + " (planner forecasts):");
            }
            long minutes = f.path("horizonSeconds").asLong() / 60;
            String record = f.hasNonNull("smape")
                    ? String.format(java.util.Locale.ROOT, "sMAPE %.2f, %.0f %% of %d recent intervals held the rate",
                    f.get("smape").asDouble(), 100 * f.path("coverage").asDouble(), f.path("scored").asInt())
                    : "not yet scored";
            out.add(String.format(java.util.Locale.ROOT, "  %s in %d min: %.3f jobs/s (%.3f-%.3f); last minute %.3f/s; %s, %s",
                    f.path("model").asText(), minutes, f.path("rate").asDouble(), f.path("lower").asDouble(),
                    f.path("upper").asDouble(), f.path("lastRate").asDouble(), f.path("method").asText(), record));
        }
        return out;
    }
}
