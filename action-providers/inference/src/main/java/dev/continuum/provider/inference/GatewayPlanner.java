package dev.continuum.provider.inference;

import dev.continuum.edge.cloud.Fleet;
import dev.continuum.edge.cloud.FleetSites;
import dev.continuum.placement.model.Cluster;
import dev.continuum.placement.model.Demand;
import dev.continuum.placement.planner.InvalidRequestException;
import dev.continuum.placement.planner.Inventory;
import dev.continuum.placement.planner.Observation;
import dev.continuum.placement.planner.OnlinePlanner;
import dev.continuum.placement.planner.PlacementDecision;
import dev.continuum.placement.planner.PlacementRequest;
import dev.continuum.placement.planner.PlannerConfig;
import dev.continuum.placement.planner.SiteStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Chooses the gateway for one inference job with the placement planner's core ({@link OnlinePlanner}, the code the
 * planner service runs): the gateways as their heartbeats describe them ({@link FleetSites}), the lowest predicted
 * latency — queue × learnt compute time + compute — and the planner's reasons when none fits. Completed jobs teach
 * it each model's compute time per gateway. One planner per provider; calls are serialised.
 */
public final class GatewayPlanner {

    /** What the job needs: a model reference, GPU memory (0 = none needed), a GPU at all, or one pinned device. */
    public record Demand(String model, long minGpuMemoryMb, boolean requireGpu, String pinnedDevice) {}

    private final OnlinePlanner planner = new OnlinePlanner(PlannerConfig.DEFAULT);
    private final Clock clock;

    public GatewayPlanner(Clock clock) {
        this.clock = clock;
    }

    /**
     * {@code Placed} on a device, or {@code Unplaceable} with what ruled out each gateway; {@code dispatched} counts
     * the tasks the provider has sent a device and not heard back about (its heartbeat may not count them yet).
     */
    public synchronized PlacementDecision choose(String jobId, Demand demand, List<Fleet.Device> devices,
                                                 ToIntFunction<String> dispatched) {
        if (devices.isEmpty()) {
            return new PlacementDecision.Unplaceable(jobId, Map.of("fleet", "no gateway is online"));
        }
        boolean gpu = demand.requireGpu() || demand.minGpuMemoryMb() > 0;
        PlacementRequest request = PlacementRequest.inference(jobId, demand.model(),
                        dev.continuum.placement.model.Demand.wholeGpus(gpu ? 1 : 0), List.of(), 0)
                .withGpuMemoryAndSite(demand.minGpuMemoryMb(), demand.pinnedDevice());
        try {
            return planner.place(request, inventory(devices, dispatched), clock.millis()).decision();
        } catch (InvalidRequestException e) {
            // e.g. a model no gateway has: for the provider that is a job that cannot run anywhere
            return new PlacementDecision.Unplaceable(jobId, Map.of("request", e.getMessage()));
        }
    }

    /** A job finished on {@code deviceId} after {@code computeMillis} of model time: the cost model learns it. */
    public synchronized void completed(String jobId, String deviceId, String model, long computeMillis) {
        planner.observe(new Observation.JobCompleted(jobId, deviceId, model, Math.max(0, computeMillis), clock.millis()));
    }

    private static Inventory inventory(List<Fleet.Device> devices, ToIntFunction<String> dispatched) {
        List<Cluster> clusters = new ArrayList<>();
        Map<String, SiteStatus> status = new HashMap<>();
        for (Fleet.Device d : devices) {
            clusters.add(FleetSites.cluster(d.deviceId(), d.heartbeat()));
            status.put(d.deviceId(), FleetSites.status(d, dispatched.applyAsInt(d.deviceId())));
        }
        return new Inventory(clusters, List.of(), Map.of(), status);
    }
}
