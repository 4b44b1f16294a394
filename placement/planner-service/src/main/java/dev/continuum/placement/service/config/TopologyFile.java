package dev.continuum.placement.service.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.service.app.LiveInventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configured part of the inventory, read from JSON: datacenter sites (inference pools and training clusters),
 * links between sites, which site each data endpoint is at, and the link every gateway gets to the datacenter.
 */
public record TopologyFile(List<SiteEntry> sites, List<Link> links, Map<String, String> endpoints,
                           List<LiveInventory.EdgeLink> edgeLinks) {

    /** One site: {@code serves} is {@code inference} and/or {@code training}; {@code models} empty = loads any. */
    public record SiteEntry(String name, String kind, List<String> serves, List<String> models, List<NodeSpec> nodes,
                            List<Partition> partitions) {}

    public TopologyFile {
        sites = sites == null ? List.of() : sites;
        links = links == null ? List.of() : links;
        endpoints = endpoints == null ? Map.of() : endpoints;
        edgeLinks = edgeLinks == null ? List.of() : edgeLinks;
    }

    public static TopologyFile empty() {
        return new TopologyFile(List.of(), List.of(), Map.of(), List.of());
    }

    public static TopologyFile read(Path file) {
        try {
            // unknown keys are refused: a misspelt "bandwidthGbps" must not silently become 0
            return new ObjectMapper().readValue(Files.readString(file), TopologyFile.class);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the planner topology " + file + ": " + e.getMessage(), e);
        }
    }

    public Inventory inventory() {
        List<Cluster> clusters = new ArrayList<>();
        Map<String, SiteStatus> status = new HashMap<>();
        for (SiteEntry s : sites) {
            Site.Kind kind = "edge".equalsIgnoreCase(s.kind()) ? Site.Kind.EDGE : Site.Kind.DATACENTER;
            clusters.add(new Cluster(new Site(s.name(), kind), s.nodes(),
                    s.partitions() == null ? List.of() : s.partitions(), List.of(), Topology.DEFAULT));
            List<PlacementRequest.Kind> serves = (s.serves() == null || s.serves().isEmpty()
                    ? List.of(kind == Site.Kind.EDGE ? "inference" : "training") : s.serves())
                    .stream().map(k -> PlacementRequest.Kind.valueOf(k.toUpperCase())).toList();
            status.put(s.name(), new SiteStatus(true, 0, s.models() == null ? Set.of() : Set.copyOf(s.models()),
                    Set.copyOf(serves)));
        }
        return new Inventory(clusters, links, endpoints, status);
    }
}
