package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.Site;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the planner knows about the world: clusters (edge gateways and datacenter pools, reusing the simulator's
 * {@link Cluster}; one cluster per site), the configured links between sites, which site each data endpoint sits
 * at, and each site's live {@link SiteStatus}. A site without a status is up with an empty queue, serving
 * inference if it is at the edge and training if it is in the datacenter.
 */
public record Inventory(List<Cluster> clusters, List<Link> links, Map<String, String> siteByEndpoint,
                        Map<String, SiteStatus> status) {
    public Inventory {
        clusters = List.copyOf(clusters);
        links = List.copyOf(links);
        siteByEndpoint = Map.copyOf(siteByEndpoint);
        status = Map.copyOf(status);
    }

    /** The first shape of this record (issue 13 step 1): every site up with an empty queue. */
    public Inventory(List<Cluster> clusters, List<Link> links, Map<String, String> siteByEndpoint) {
        this(clusters, links, siteByEndpoint, Map.of());
    }

    public static Inventory empty() {
        return new Inventory(List.of(), List.of(), Map.of(), Map.of());
    }

    public SiteStatus statusOf(Cluster cluster) {
        SiteStatus s = status.get(cluster.site().name());
        if (s != null) {
            return s;
        }
        boolean edge = cluster.site().kind() == Site.Kind.EDGE;
        return new SiteStatus(true, 0, Set.of(),
                Set.of(edge ? PlacementRequest.Kind.INFERENCE : PlacementRequest.Kind.TRAINING));
    }

    /** The cluster of a site, or null. */
    public Cluster cluster(String site) {
        for (Cluster c : clusters) {
            if (c.site().name().equals(site)) {
                return c;
            }
        }
        return null;
    }

    public Inventory withStatus(String site, SiteStatus newStatus) {
        Map<String, SiteStatus> s = new HashMap<>(status);
        s.put(site, newStatus);
        return new Inventory(clusters, links, siteByEndpoint, s);
    }
}
