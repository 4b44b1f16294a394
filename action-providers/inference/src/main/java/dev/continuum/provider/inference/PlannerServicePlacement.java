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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Asks the placement planner service where each job runs ({@code POST /placements}, id = the action id, run id from
 * the engine's request id), so every inference decision is the planner's and is in its decision log: {@code GET
 * /placements/{action id}} and {@code continuum placement explain} show it. The planner sees the gateways and the
 * datacenter pool from their own heartbeats; it places a job again by itself when its gateway goes offline and, when
 * this provider named itself in the request ({@code owner}, its MQTT client id), pushes that decision over the broker
 * ({@link #pushed}); {@link #placedAgain} takes a pushed decision without a call and otherwise reads it from the log.
 * Completions teach its cost model.
 */
public final class PlannerServicePlacement implements JobPlacement {

    private static final Logger LOG = Logger.getLogger(PlannerServicePlacement.class.getName());

    private final PlannerClient planner;
    /** The name re-placements are pushed to (the provider's MQTT client id); null: none are, they are polled. */
    private final String owner;
    /** Re-placements pushed and not yet taken, by job id. */
    private final Map<String, Replacement> pushed = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    public PlannerServicePlacement(PlannerClient planner) {
        this(planner, null);
    }

    /** Asks {@code planner}, naming this provider {@code owner} so its re-placements are pushed (see {@link #pushed}). */
    public PlannerServicePlacement(PlannerClient planner, String owner) {
        this.planner = planner;
        this.owner = owner;
    }

    /** The planner pushed a re-placement (from {@link EdgeCloud#onReplacement}): kept until its job asks. */
    public void pushed(Replacement replacement) {
        pushed.put(replacement.id(), replacement);
        listeners.forEach(l -> l.accept(replacement.id()));
    }

    @Override
    public boolean pushesPlacedAgain() {
        return owner != null;
    }

    @Override
    public void onPlacedAgain(Consumer<String> jobId) {
        listeners.add(jobId);
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
        Replacement push = pushed.get(job.id());
        if (push != null && push.lostSite().equals(lost)) {
            pushed.remove(job.id(), push);
            return Optional.of(verdict(push.decision()));
        }
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
        pushed.remove(job.id()); // one pushed for a gateway that came back in time, never taken
        try {
            planner.completed(job.id(), site, measured);
        } catch (RuntimeException e) {
            // the job ran; the planner only learns less (and counts it in the gateway's queue until its next heartbeat)
            LOG.log(Level.WARNING, "could not tell the planner that " + job.id() + " finished: " + e.getMessage());
        }
    }

    /** The job as the planner contract's request: only what the job says (the planner fills in the rest). */
    PlacementBody request(Job job) {
        boolean gpu = job.requireGpu() || job.minGpuMemoryMb() > 0;
        List<PlacementBody.DataBody> data = job.data().stream()
                .map(d -> new PlacementBody.DataBody(d.endpointId(), d.path(), d.sizeBytes())).toList();
        return new PlacementBody(job.id(), job.runId(), PlacementBody.INFERENCE, job.model(), null, null,
                new PlacementBody.DemandBody(gpu ? 1 : 0, null, null, null, null), data, null,
                job.latencySloMillis() > 0 ? job.latencySloMillis() : null, null, null, null, null, null,
                job.minGpuMemoryMb() > 0 ? job.minGpuMemoryMb() : null, job.pinnedDevice(), owner);
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
