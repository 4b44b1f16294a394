package dev.continuum.placement.service.app;

import dev.continuum.placement.model.Cluster;
import dev.continuum.placement.model.Link;
import dev.continuum.placement.planner.Inventory;
import dev.continuum.placement.planner.SiteStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The inventory as it is now: the configured sites (datacenter pools, training clusters, links, endpoints) and the
 * gateways their heartbeats describe. A gateway's storage endpoint has its device id; it reaches the sites named in
 * {@link EdgeLink}s over the configured bandwidth and latency. Thread-safe: heartbeats arrive on the MQTT thread.
 */
public final class LiveInventory {

    /** Every gateway reaches {@code to} over a link of this bandwidth and latency (until transfers measure it). */
    public record EdgeLink(String to, double bandwidthGbps, double latencyMs) {}

    private record Gateway(Cluster cluster, SiteStatus status) {}

    private final Inventory configured;
    private final List<EdgeLink> edgeLinks;
    private final Map<String, Gateway> gateways = new TreeMap<>();
    private long version;

    public LiveInventory(Inventory configured, List<EdgeLink> edgeLinks) {
        this.configured = configured;
        this.edgeLinks = List.copyOf(edgeLinks);
    }

    /** A gateway's heartbeat or status: returns false if nothing the planner sees changed. */
    public synchronized boolean putGateway(Cluster cluster, SiteStatus status) {
        Gateway now = new Gateway(cluster, status);
        Gateway before = gateways.put(cluster.site().name(), now);
        if (now.equals(before)) {
            return false;
        }
        version++;
        return true;
    }

    public synchronized boolean removeGateway(String deviceId) {
        if (gateways.remove(deviceId) == null) {
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
        List<Cluster> clusters = new ArrayList<>(configured.clusters());
        List<Link> links = new ArrayList<>(configured.links());
        Map<String, String> endpoints = new HashMap<>(configured.siteByEndpoint());
        Map<String, SiteStatus> status = new HashMap<>(configured.status());
        for (Gateway g : gateways.values()) {
            String id = g.cluster().site().name();
            clusters.add(g.cluster());
            status.put(id, g.status());
            endpoints.putIfAbsent(id, id);
            for (EdgeLink l : edgeLinks) {
                links.add(new Link(id, l.to(), l.bandwidthGbps(), l.latencyMs()));
            }
        }
        return new Inventory(clusters, links, endpoints, status);
    }
}
