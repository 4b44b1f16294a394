package dev.continuum.placement.core.planner.trace;

import static dev.continuum.placement.core.planner.World.MB;
import static dev.continuum.placement.core.planner.World.NOW;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.core.planner.World;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** A planner session recorded as the service records one, for tests that replay traces. */
public final class RecordedSession {
    private static final List<String> GATEWAYS = List.of("gw-1", "gw-2", "gw-3");

    private RecordedSession() {
    }

    /**
     * A deterministic mixed session under {@code las+fgd}: heartbeats, inference and training arrivals, completions,
     * transfers; the trace's text.
     */
    public static String record(int steps) {
        Inventory inventory = new World().gateway("gw-1", "T4", 0, "resnet", "bert").gateway("gw-2", "Orin", 3, "resnet")
                .gateway("gw-3", "T4", 1, "resnet", "bert").pool("dc", 4, 0).training("hpc", 4, 8, "A100")
                .link("gw-1", "dc", 0.1, 20).link("gw-2", "dc", 1, 5).link("gw-3", "dc", 0.02, 40)
                .status("dc", SiteStatus.inference(0, Set.of("resnet", "bert"))).inventory();
        StringWriter trace = new StringWriter();
        RecordingPlanner planner = new RecordingPlanner(new OnlinePlanner(PlannerConfig.DEFAULT.withPolicy("las+fgd")),
                trace);
        planner.update(inventory, NOW);
        Random random = new Random(2026);
        Map<String, String> inferenceRunning = new LinkedHashMap<>();
        List<String> trainingRunning = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            long now = NOW + step * 1_000L;
            int dice = random.nextInt(100);
            List<PlacementDecision> decisions = new ArrayList<>();
            if (dice < 10) {
                String site = random.nextInt(4) == 0 ? "dc" : GATEWAYS.get(random.nextInt(GATEWAYS.size()));
                SiteStatus was = inventory.status().get(site);
                SiteStatus s = new SiteStatus(true, random.nextInt(40), was.models(), was.serves());
                inventory = inventory.withStatus(site, random.nextInt(3) == 0 ? s.offline() : s);
                decisions.addAll(planner.update(inventory, now));
            } else if (dice < 50) {
                String from = random.nextInt(4) == 0 ? "ep-dc" : "ep-" + GATEWAYS.get(random.nextInt(GATEWAYS.size()));
                String model = random.nextInt(10) == 0 ? "llama" : random.nextBoolean() ? "resnet" : "bert";
                PlacementRequest r = PlacementRequest.inference("i" + step, model, Demand.wholeGpus(1),
                        List.of(new DataReference(from, "/x", random.nextInt(200) * MB)), random.nextInt(3) * 500L);
                try {
                    decisions.addAll(planner.place(r, now).decisions());
                } catch (InvalidRequestException refused) {
                    // recorded as refused; the replay must refuse it too
                }
            } else if (dice < 68) {
                PlacementRequest r = PlacementRequest.training("t" + step,
                        Demand.wholeGpus(1 << random.nextInt(5)), "", 600 + random.nextInt(3600));
                decisions.addAll(planner.place(r, now).decisions());
            } else if (dice < 85 && !inferenceRunning.isEmpty()) {
                String id = inferenceRunning.keySet().stream().skip(random.nextInt(inferenceRunning.size()))
                        .findFirst().orElseThrow();
                String site = inferenceRunning.remove(id);
                // as the inference provider reports it: compute, overhead and the wait for a worker
                decisions.addAll(planner.observe(new Observation.JobCompleted(id, site, "resnet",
                        20 + random.nextInt(300), now, random.nextInt(100), random.nextInt(50))));
            } else if (dice < 95 && !trainingRunning.isEmpty()) {
                String id = trainingRunning.remove(random.nextInt(trainingRunning.size()));
                decisions.addAll(planner.observe(new Observation.JobCompleted(id, "hpc", "", 0, now)));
            } else {
                String gw = GATEWAYS.get(random.nextInt(GATEWAYS.size()));
                decisions.addAll(planner.observe(new Observation.TransferMeasured("ep-" + gw, "ep-dc",
                        1e5 + random.nextInt(100) * 1e6, now)));
            }
            for (PlacementDecision d : decisions) {
                if (d instanceof PlacementDecision.Placed p && p.chosen().site().equals("hpc")) {
                    trainingRunning.add(d.requestId());
                } else if (d instanceof PlacementDecision.Placed p) {
                    inferenceRunning.put(d.requestId(), p.chosen().site());
                } else if (d instanceof PlacementDecision.Preempted) {
                    trainingRunning.remove(d.requestId());
                }
            }
        }
        return trace.toString();
    }
}
