package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.edge.fleet.FleetSites;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Chooses the gateway for one inference job with the placement planner's core ({@link OnlinePlanner}, the code the
 * planner service runs) when the provider runs without a planner service: the gateways as their heartbeats describe
 * them ({@link FleetSites}), the lowest predicted latency — queue × learnt compute time + compute — and the planner's
 * reasons when none fits. Completed jobs teach it each model's compute time per gateway. Its decisions are not logged
 * anywhere but the action's own details (in the planner service's JSON) (the planner service logs its own: {@link PlannerServicePlacement}). One per
 * provider; calls are serialised.
 */
public final class GatewayPlanner implements JobPlacement {

    private final OnlinePlanner planner = new OnlinePlanner(PlannerConfig.DEFAULT);
    /** The gateways that can take a job now (the fleet's usable ones). */
    private final Supplier<List<Fleet.Device>> devices;
    /** What the provider has sent a device and not heard back about, by device id. */
    private final ToIntFunction<String> dispatched;
    private final Clock clock;
    /** The links between sites, by their site names: without one, data is never moved from where it lies. */
    private final List<Link> links;

    /** Over the fleet's usable gateways, counting what {@code dispatcher} has out on each. */
    public GatewayPlanner(Fleet fleet, TaskDispatcher dispatcher, Clock clock) {
        this(fleet, dispatcher, clock, List.of());
    }

    /** With {@code links} between sites (gateway device ids): a job may then run away from its data, which is moved. */
    public GatewayPlanner(Fleet fleet, TaskDispatcher dispatcher, Clock clock, List<Link> links) {
        this(fleet::usable, dispatcher::pendingFor, clock, links);
    }

    /** Over the gateways {@code devices} gives, {@code dispatched} counting what the provider has out on each. */
    public GatewayPlanner(Supplier<List<Fleet.Device>> devices, ToIntFunction<String> dispatched, Clock clock,
                          List<Link> links) {
        this.devices = devices;
        this.dispatched = dispatched;
        this.clock = clock;
        this.links = List.copyOf(links);
    }

    @Override
    public Decision place(Job job) {
        return decision(choose(job, devices.get(), dispatched));
    }

    @Override
    public Optional<Decision> placedAgain(Job job, String lost) {
        // the lost gateway is offline in the fleet by now: deciding again leaves it out
        return Optional.of(decision(choose(job, devices.get().stream().filter(d -> !d.deviceId().equals(lost)).toList(),
                dispatched)));
    }

    /** {@code Placed} on a device, or {@code Unplaceable} with what ruled out each gateway. */
    public synchronized PlacementDecision choose(Job job, List<Fleet.Device> devices, ToIntFunction<String> dispatched) {
        if (devices.isEmpty()) {
            return new PlacementDecision.Unplaceable(job.id(), Map.of("fleet", "no gateway is online"));
        }
        boolean gpu = job.requireGpu() || job.minGpuMemoryMb() > 0;
        // data lying outside the fleet (no site for its endpoint here) would make every gateway unreachable: left out
        List<DataReference> data = job.data().stream().filter(d -> devices.stream().anyMatch(x -> x.deviceId().equals(d.endpointId())))
                .map(d -> new DataReference(d.endpointId(), d.path(), d.sizeBytes())).toList();
        PlacementRequest request = PlacementRequest.inference(job.id(), job.model(), Demand.wholeGpus(gpu ? 1 : 0),
                List.of(), job.latencySloMillis()).withGpuMemoryAndSite(job.minGpuMemoryMb(), job.pinnedDevice());
        if (!data.isEmpty()) {
            request = new PlacementRequest(request.id(), request.kind(), request.model(), request.minGpus(), request.maxGpus(),
                    request.demand(), data, 0, request.latencySloMillis(), 0, "", "", 0, false)
                    .withGpuMemoryAndSite(job.minGpuMemoryMb(), job.pinnedDevice());
        }
        try {
            return planner.place(request, inventory(devices, dispatched), clock.millis()).decision();
        } catch (InvalidRequestException e) {
            // e.g. a model no gateway has: for the provider that is a job that cannot run anywhere
            return new PlacementDecision.Unplaceable(job.id(), Map.of("request", e.getMessage()));
        }
    }

    @Override
    public synchronized void completed(Job job, String site, PlannerClient.Measured measured) {
        if (measured.transferMillis() > 0) {
            // moving its input corrects the link it came over, as in the planner service; before the completion
            planner.observe(new Observation.InputMoved(job.id(), site, measured.transferMillis(), clock.millis()));
        }
        // PlannerClient.NOT_MEASURED is the core's NOT_MEASURED (-1): that term is not learnt
        planner.observe(new Observation.JobCompleted(job.id(), site, job.model(), measured.computeMillis(),
                clock.millis(), measured.overheadMillis(), measured.queuedMillis()));
    }

    /** The decision in the planner service's JSON (the same codec), so the action's details read the same either way. */
    private static Decision decision(PlacementDecision d) {
        JsonNode json = json(d);
        if (d instanceof PlacementDecision.Placed placed) {
            return Decision.placed(placed.chosen().site(), json);
        }
        String why = d instanceof PlacementDecision.Unplaceable u ? String.join("; ", u.reasons()) : d.toString();
        return Decision.refused(why, json);
    }

    private static JsonNode json(PlacementDecision d) {
        return TraceCodec.decisionTree(d);
    }

    private Inventory inventory(List<Fleet.Device> devices, ToIntFunction<String> dispatched) {
        List<Cluster> clusters = new ArrayList<>();
        Map<String, SiteStatus> status = new HashMap<>();
        Map<String, String> siteByEndpoint = new HashMap<>();
        for (Fleet.Device d : devices) {
            clusters.add(FleetSites.cluster(d.deviceId(), d.heartbeat()));
            status.put(d.deviceId(), FleetSites.status(d, dispatched.applyAsInt(d.deviceId())));
            siteByEndpoint.put(d.deviceId(), d.deviceId()); // a gateway's data lies at the endpoint named like it
        }
        return new Inventory(clusters, links, siteByEndpoint, status);
    }
}
