package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.continuum.placement.api.DecisionTypes;
import dev.continuum.placement.api.DecisionView;
import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.api.PlacementView;
import dev.continuum.placement.api.Replacement;
import dev.continuum.placement.api.client.PlannerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Asks the placement planner service where each job runs ({@code POST /placements}, id = the action id, run id from
 * the engine's request id), so every inference decision is the planner's and is in its decision log: {@code GET
 * /placements/{action id}} and {@code continuum placement explain} show it. The planner sees the gateways and the
 * datacenter pool from their own heartbeats; it places a job again by itself when its gateway goes offline, and
 * {@link #placedAgain} reads that decision back. Completions teach its cost model.
 */
public final class PlannerServicePlacement implements JobPlacement {

    private static final Logger LOG = Logger.getLogger(PlannerServicePlacement.class.getName());

    private final PlannerClient planner;

    public PlannerServicePlacement(PlannerClient planner) {
        this.planner = planner;
    }

    @Override
    public Decision place(Job job) {
        PlacementView answer;
        try {
            answer = planner.place(request(job));
        } catch (PlannerClient.PlannerException e) {
            if (e.status() / 100 == 4 && e.status() != 401 && e.status() != 403 && e.problem() != null) {
                return Decision.refused(problemText(e.problem()), e.problem()); // e.g. a model no site has
            }
            return Decision.refused("the placement planner did not answer: " + e.getMessage(), null);
        } catch (RuntimeException e) {
            // no token for the planner (the identity provider refused the service account, or is down)
            return Decision.refused("cannot ask the placement planner: " + e.getMessage(), null);
        }
        return verdict(answer.first().map(DecisionView::decision).orElse(MissingNode.getInstance()));
    }

    @Override
    public Optional<Decision> placedAgain(Job job, String lost) {
        PlacementView log;
        try {
            log = planner.placement(job.id());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "planner not reachable while job " + job.id() + " waits for a new site", e);
            return Optional.empty();
        }
        // empty while the planner has not seen the gateway go yet
        return log.replacementAfter(lost).map(Replacement::decision).map(PlannerServicePlacement::verdict);
    }

    @Override
    public void completed(Job job, String site, PlannerClient.Measured measured) {
        try {
            planner.completed(job.id(), site, measured);
        } catch (RuntimeException e) {
            // the job ran; the planner only learns less (and counts it in the gateway's queue until its next heartbeat)
            LOG.log(Level.WARNING, "could not tell the planner that " + job.id() + " finished: " + e.getMessage());
        }
    }

    /** The job as the planner contract's request: only what the job says (the planner fills in the rest). */
    static PlacementBody request(Job job) {
        boolean gpu = job.requireGpu() || job.minGpuMemoryMb() > 0;
        List<PlacementBody.DataBody> data = job.data().stream()
                .map(d -> new PlacementBody.DataBody(d.endpointId(), d.path(), d.sizeBytes())).toList();
        return new PlacementBody(job.id(), job.runId(), PlacementBody.INFERENCE, job.model(), null, null,
                new PlacementBody.DemandBody(gpu ? 1 : 0, null, null, null, null), data, null,
                job.latencySloMillis() > 0 ? job.latencySloMillis() : null, null, null, null, null, null,
                job.minGpuMemoryMb() > 0 ? job.minGpuMemoryMb() : null, job.pinnedDevice());
    }

    private static Decision verdict(JsonNode decision) {
        if (DecisionTypes.PLACED.equals(decision.path("type").asText())) {
            return Decision.placed(decision.path("chosen").path("site").asText(), decision);
        }
        List<String> why = new ArrayList<>();
        decision.path("reasonBySite").fields().forEachRemaining(e -> why.add(e.getKey() + ": " + e.getValue().asText()));
        return Decision.refused(why.isEmpty() ? decision.toString() : String.join("; ", why), decision);
    }

    private static String problemText(JsonNode problem) {
        List<String> parts = new ArrayList<>();
        for (JsonNode e : problem.path("errors")) {
            parts.add(e.path("pointer").asText() + ": " + e.path("message").asText(e.path("detail").asText()));
        }
        return parts.isEmpty() ? problem.path("detail").asText(problem.toString()) : String.join("; ", parts);
    }
}
