package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds small inventories for planner tests: gateways, a datacenter inference pool, training clusters, links. */
public final class World {
    public static final long NOW = 1_800_000_000_000L;
    public static final long MB = 1_000_000;

    private final List<Cluster> clusters = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final Map<String, String> endpoints = new HashMap<>();
    private final Map<String, SiteStatus> status = new HashMap<>();

    /** A one-GPU edge gateway with its storage endpoint {@code ep-<name>}, {@code queued} tasks waiting. */
    public World gateway(String name, String gpuModel, int queued, String... models) {
        clusters.add(new Cluster(new Site(name, Site.Kind.EDGE),
                List.of(new NodeSpec(name, "", 1, gpuModel, 16_384, 8_000, 32_768)), List.of(), List.of(), Topology.DEFAULT));
        endpoints.put("ep-" + name, name);
        status.put(name, SiteStatus.inference(queued, Set.of(models)));
        return this;
    }

    /** The datacenter inference pool: {@code nodes} nodes of 4 A100s, endpoint {@code ep-dc}. */
    public World pool(String name, int nodes, int queued) {
        List<NodeSpec> specs = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            specs.add(new NodeSpec(name + "-" + i, "", 4, "A100", 81_920, 64_000, 512_000));
        }
        clusters.add(new Cluster(new Site(name, Site.Kind.DATACENTER), specs, List.of(), List.of(), Topology.DEFAULT));
        endpoints.put("ep-dc", name);
        status.put(name, SiteStatus.inference(queued, Set.of()));
        return this;
    }

    /** A training cluster of {@code nodes} nodes with {@code gpus} GPUs each, and optional partitions. */
    public World training(String name, int nodes, int gpus, String gpuModel, Partition... partitions) {
        List<NodeSpec> specs = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            specs.add(new NodeSpec(name + "-n" + i, "r" + i / 4, gpus, gpuModel, 81_920, 96_000, 1_024_000));
        }
        clusters.add(new Cluster(new Site(name, Site.Kind.DATACENTER), specs, List.of(partitions), List.of(),
                Topology.DEFAULT));
        status.put(name, SiteStatus.training());
        return this;
    }

    public World link(String a, String b, double gbps, double latencyMs) {
        links.add(new Link(a, b, gbps, latencyMs));
        return this;
    }

    public World status(String site, SiteStatus s) {
        status.put(site, s);
        return this;
    }

    public Inventory inventory() {
        return new Inventory(clusters, links, endpoints, status);
    }

    static OnlinePlanner planner(Inventory inventory) {
        return planner(inventory, PlannerConfig.DEFAULT);
    }

    static OnlinePlanner planner(Inventory inventory, PlannerConfig config) {
        OnlinePlanner p = new OnlinePlanner(config);
        p.update(inventory, NOW);
        return p;
    }

    /** An inference request for one GPU reading {@code bytes} from {@code endpoint}. */
    static PlacementRequest classify(String id, String endpoint, long bytes, long sloMillis) {
        return PlacementRequest.inference(id, "resnet", Demand.wholeGpus(1),
                List.of(new DataReference(endpoint, "/in/" + id, bytes)), sloMillis);
    }

    static PlacementDecision.Placed placed(PlacementResult r) {
        if (r.decision() instanceof PlacementDecision.Placed p) {
            return p;
        }
        throw new AssertionError("expected a placement, got " + r.decision());
    }
}
