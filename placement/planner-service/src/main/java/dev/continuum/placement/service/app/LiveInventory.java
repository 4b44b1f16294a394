package dev.continuum.placement.service.app;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.SiteStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The inventory as it is now: the configured sites (datacenter pools, training clusters, links, endpoints) and the
 * gateways their heartbeats describe. A gateway's storage endpoint has its device id; it reaches the sites named in
 * {@link EdgeLink}s over the configured bandwidth and latency. A gateway runtime in the datacenter role (the inference
 * pool) is a datacenter site: the edge links lead to it when they name its device id. Thread-safe: heartbeats arrive on the MQTT thread.
 */
public final class LiveInventory {

    /** Every gateway reaches {@code to} over a link of this bandwidth and latency (until transfers measure it). */
    public record EdgeLink(String to, double bandwidthGbps, double latencyMs) {}

    /** A site as last reported: its nodes and its status. */
    private record Reported(Cluster cluster, SiteStatus status) {}

    private final Inventory configured;
    private final List<EdgeLink> edgeLinks;
    private final Map<String, Reported> gateways = new TreeMap<>();
    /** Datacenter sites their backends reported (training partitions, inference pools): replace configured ones. */
    private final Map<String, Reported> reported = new TreeMap<>();
    private long version;

    public LiveInventory(Inventory configured, List<EdgeLink> edgeLinks) {
        this.configured = configured;
        this.edgeLinks = List.copyOf(edgeLinks);
    }

    /** A gateway's heartbeat or status: returns false if nothing the planner sees changed. */
    public synchronized boolean putGateway(Cluster cluster, SiteStatus status) {
        return put(gateways, cluster, status);
    }

    public synchronized boolean removeGateway(String deviceId) {
        return remove(gateways, deviceId);
    }

    /**
     * A datacenter site as its backend reports it now (a Slurm cluster's partitions, a Kubernetes node pool, the
     * local GPUs): it replaces the configured site of that name, if any. Returns false if nothing changed.
     */
    public synchronized boolean putSite(Cluster cluster, SiteStatus status) {
        return put(reported, cluster, status);
    }

    /** The site its backend no longer reports; jobs there are left without a site (the decision log says so). */
    public synchronized boolean removeSite(String name) {
        return remove(reported, name);
    }

    private boolean put(Map<String, Reported> sites, Cluster cluster, SiteStatus status) {
        Reported now = new Reported(cluster, status);
        if (now.equals(sites.put(cluster.site().name(), now))) {
            return false;
        }
        version++;
        return true;
    }

    private boolean remove(Map<String, Reported> sites, String name) {
        if (sites.remove(name) == null) {
            return false;
        }
        version++;
        return true;
    }

    /** Grows by one at every change, so a reader can tell whether the planner's inventory is stale. */
    public synchronized long version() {
        return version;
    }

    public synchronized Inventory snapshot() {
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster c : configured.clusters()) {
            if (!reported.containsKey(c.site().name())) {
                clusters.add(c);
            }
        }
        List<Link> links = new ArrayList<>(configured.links());
        Map<String, String> endpoints = new HashMap<>(configured.siteByEndpoint());
        Map<String, SiteStatus> status = new HashMap<>(configured.status());
        for (Reported r : reported.values()) {
            clusters.add(r.cluster());
            status.put(r.cluster().site().name(), r.status());
        }
        for (Reported g : gateways.values()) {
            String id = g.cluster().site().name();
            clusters.add(g.cluster());
            status.put(id, g.status());
            endpoints.putIfAbsent(id, id);
            if (g.cluster().site().kind() == Site.Kind.DATACENTER) {
                continue; // a datacenter pool is the far end of the edge links (named in them), not a gateway with its own
            }
            for (EdgeLink l : edgeLinks) {
                if (!l.to().equals(id)) {
                    links.add(new Link(id, l.to(), l.bandwidthGbps(), l.latencyMs()));
                }
            }
        }
        return new Inventory(clusters, links, endpoints, status);
    }
}
