package dev.continuum.placement.planner;

import dev.continuum.placement.model.Cluster;
import dev.continuum.placement.model.Link;
import java.util.List;
import java.util.Map;

/**
 * What the planner knows about the world: clusters (edge gateways and datacenter pools, reusing the simulator's
 * {@link Cluster}), the links between sites and endpoints, and which site each data endpoint sits at.
 */
public record Inventory(List<Cluster> clusters, List<Link> links, Map<String, String> siteByEndpoint) {
    public Inventory {
        clusters = List.copyOf(clusters);
        links = List.copyOf(links);
        siteByEndpoint = Map.copyOf(siteByEndpoint);
    }
}
