package dev.continuum.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * After the edge inference example: where the job ran and why — the site, the planner's predicted latency beside the
 * measured one (each split into transfer, queue and compute) and the decision's reasons — read from the run's output
 * (the inference action's details, which carry the planner's decision), and the sites it scored and did not choose.
 */
final class PlacementReport {

    private PlacementReport() {}

    static void print(JsonNode run, Optional<String> plannerUrl) {
        JsonNode placement = run.findValue("placement");
        JsonNode actual = run.findValue("actual");
        if (placement == null || !placement.has("site")) {
            say("Placement:      not reported by the inference provider");
            return;
        }
        say("Ran on:         " + placement.path("site").asText() + (plannerUrl.isPresent()
                ? ", placed by the planner service (" + plannerUrl.get() + ")" : ", placed by the planner's core inside the provider"));
        say("  predicted:    " + split(placement.path("predicted")));
        if (actual != null) {
            say("  actual:       " + split(actual));
        }
        String lead = "  why:          ";
        for (JsonNode reason : placement.path("reasons")) {
            say(lead + reason.asText());
            lead = "                ";
        }
        lead = "  instead:      ";
        for (JsonNode other : placement.path("alternatives")) {
            say(lead + other.path("site").asText() + ": " + other.path("explanation").asText());
            lead = "                ";
        }
        plannerUrl.ifPresent(url -> say("  explain:      ./continuum cli placement explain " + run.path("run_id").asText()
                + " --planner " + url));
    }

    private static String split(JsonNode ms) {
        return ms.path("total_ms").asLong() + " ms = transfer " + ms.path("transfer_ms").asLong() + " + queue "
                + ms.path("queue_ms").asLong() + " + compute " + ms.path("compute_ms").asLong() + " ms";
    }

    private static void say(String line) {
        System.out.println(line);
    }
}
