package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.provider.client.PlannerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;
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
    public Decision place(Job job, List<Fleet.Device> devices, ToIntFunction<String> dispatched) {
        JsonNode answer;
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
        return verdict(answer.path("decisions").path(0).path("decision"));
    }

    @Override
    public Optional<Decision> placedAgain(Job job, String lost, List<Fleet.Device> devices, ToIntFunction<String> dispatched) {
        JsonNode log;
        try {
            log = planner.placement(job.id());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "planner not reachable while job " + job.id() + " waits for a new site", e);
            return Optional.empty();
        }
        JsonNode latest = log.path("decisions").path(log.path("decisions").size() - 1);
        String status = latest.path("status").asText("");
        if ("placed".equals(status) && !lost.equals(latest.path("site").asText())) {
            return Optional.of(verdict(latest.path("decision")));
        }
        if ("unplaceable".equals(status) && latest.path("seq").asLong() > firstSeq(log)) {
            return Optional.of(verdict(latest.path("decision")));
        }
        return Optional.empty(); // the planner has not seen the gateway go yet
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

    static ObjectNode request(Job job) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("id", job.id()).put("kind", "inference")
                .put("model", job.model());
        if (job.runId() != null) {
            body.put("runId", job.runId());
        }
        boolean gpu = job.requireGpu() || job.minGpuMemoryMb() > 0;
        body.putObject("demand").put("gpus", gpu ? 1 : 0);
        if (job.minGpuMemoryMb() > 0) {
            body.put("minGpuMemoryMib", job.minGpuMemoryMb());
        }
        if (job.pinnedDevice() != null) {
            body.put("site", job.pinnedDevice());
        }
        if (job.latencySloMillis() > 0) {
            body.put("latencySloMillis", job.latencySloMillis());
        }
        ArrayNode data = body.putArray("data");
        for (Data d : job.data()) {
            data.addObject().put("endpointId", d.endpointId()).put("path", d.path()).put("sizeBytes", d.sizeBytes());
        }
        return body;
    }

    private static Decision verdict(JsonNode decision) {
        if ("placed".equals(decision.path("type").asText())) {
            return Decision.placed(decision.path("chosen").path("site").asText(), decision);
        }
        List<String> why = new ArrayList<>();
        decision.path("reasonBySite").fields().forEachRemaining(e -> why.add(e.getKey() + ": " + e.getValue().asText()));
        return Decision.refused(why.isEmpty() ? decision.toString() : String.join("; ", why), decision);
    }

    private static long firstSeq(JsonNode log) {
        return log.path("decisions").path(0).path("seq").asLong();
    }

    private static String problemText(JsonNode problem) {
        List<String> parts = new ArrayList<>();
        for (JsonNode e : problem.path("errors")) {
            parts.add(e.path("pointer").asText() + ": " + e.path("message").asText(e.path("detail").asText()));
        }
        return parts.isEmpty() ? problem.path("detail").asText(problem.toString()) : String.join("; ", parts);
    }
}
