package dev.continuum.edge.fleet;

import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.planner.SiteStatus;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A gateway as the placement planner sees it: one edge site of one node, built from its last heartbeat. The
 * planner service (from MQTT) and the inference provider (from its {@link Fleet}) both build sites here, so they
 * describe a gateway the same way.
 */
public final class FleetSites {

    private FleetSites() {}

    /**
     * The gateway's one node: its GPUs (model and free memory of the first), CPU cores and memory. A gateway in the
     * datacenter role is a datacenter site (the inference pool), any other an edge site.
     */
    public static Cluster cluster(String deviceId, Heartbeat hb) {
        List<GpuInfo> gpus = hb == null ? List.of() : hb.gpus();
        String model = gpus.isEmpty() ? "" : gpus.getFirst().model();
        long gpuMemory = gpus.isEmpty() ? 0 : hb.gpuMemoryFreeMb();
        long cpuMilli = hb == null ? 0 : hb.cpuCores() * 1000L;
        long memory = hb == null ? 0 : hb.memoryTotalMb();
        Site.Kind kind = hb != null && hb.datacenter() ? Site.Kind.DATACENTER : Site.Kind.EDGE;
        return new Cluster(new Site(deviceId, kind),
                List.of(new NodeSpec(deviceId, "", gpus.size(), model, gpuMemory, cpuMilli, memory)),
                List.of(), List.of(), Topology.DEFAULT);
    }

    /**
     * Up or down, and the tasks ahead of a new one: waiting and running on the gateway, or what the cloud has sent
     * it and not heard back about ({@code dispatched}), whichever is more — a heartbeat lags the cloud's sends.
     */
    public static SiteStatus status(Fleet.Device device, int dispatched) {
        Heartbeat hb = device.heartbeat();
        int queued = hb == null ? dispatched : Math.max(hb.queuedTasks() + hb.runningTasks(), dispatched);
        SiteStatus status = SiteStatus.inference(queued, hb == null ? Set.of() : models(hb));
        // a gateway with no heartbeat yet cannot be sent tasks: it has not proved its credential
        return device.online() && hb != null ? status : status.offline();
    }

    /** Every name a loaded model answers to (digest, name, name@version), so requests may use any. */
    public static Set<String> models(Heartbeat hb) {
        Set<String> out = new TreeSet<>();
        for (Heartbeat.LoadedModel m : hb.loadedModels()) {
            out.add(m.digest());
            if (m.name() != null) {
                out.add(m.name());
                if (m.version() != null) {
                    out.add(m.name() + "@" + m.version());
                }
            }
        }
        // an empty set means "loads any" to the planner; a gateway with nothing loaded has no model to offer
        return out.isEmpty() ? Set.of("(none loaded)") : out;
    }
}
