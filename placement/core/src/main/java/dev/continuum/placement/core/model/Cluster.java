package dev.continuum.placement.core.model;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Physical topology (nodes, racks, links) and logical partitions of one site. */
public record Cluster(Site site, List<NodeSpec> nodes, List<Partition> partitions, List<Link> links,
                      Topology topology) {
    public Cluster {
        nodes = List.copyOf(nodes);
        partitions = List.copyOf(partitions);
        links = List.copyOf(links);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one node");
        }
    }

    public static Cluster of(String name, List<NodeSpec> nodes) {
        return new Cluster(new Site(name, Site.Kind.DATACENTER), nodes, List.of(), List.of(), Topology.DEFAULT);
    }

    public Cluster withPartitions(List<Partition> newPartitions) {
        return new Cluster(site, nodes, newPartitions, links, topology);
    }

    public Cluster withTopology(Topology newTopology) {
        return new Cluster(site, nodes, partitions, links, newTopology);
    }

    public int totalGpus() {
        return nodes.stream().mapToInt(NodeSpec::gpus).sum();
    }

    public int maxGpusPerNode() {
        return nodes.stream().mapToInt(NodeSpec::gpus).max().orElse(0);
    }

    public Map<String, Partition> partitionsByName() {
        return partitions.stream().collect(Collectors.toMap(Partition::name, Function.identity()));
    }
}
