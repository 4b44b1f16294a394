package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.InvalidRequestException.FieldError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code PUT /inventory/partitions}: what a training backend offers now — one site (a Slurm cluster, a Kubernetes
 * cluster, the local machine) and its partitions (Slurm partitions, node pools or queues), in the shape of the
 * training provider's {@code BackendInventory}. The site becomes one datacenter cluster whose nodes are every
 * partition's nodes (a node in several partitions counts once) and whose partitions have, unless {@code quotaGpus}
 * says otherwise, the GPUs of their nodes as quota.
 */
public record PartitionsBody(String site, String backend, Boolean online, List<PartitionBody> partitions) {

    /** {@code nodes} node names with {@code gpusPerNode} GPUs of {@code gpuModel} each ("" = unknown). */
    public record PartitionBody(String name, @JsonProperty("default") Boolean isDefault, List<String> nodes,
                                Integer gpusPerNode, String gpuModel, Long gpuMemoryMib, Integer cpusPerNode,
                                Long memoryMbPerNode, Integer quotaGpus) {}

    /** The site as a cluster, or every bad field in one {@link InvalidRequestException}. */
    public Cluster toCluster() {
        List<FieldError> errors = new ArrayList<>();
        if (site == null || site.isBlank()) {
            errors.add(new FieldError("site", "is required: the name the planner shows for this backend's cluster"));
        }
        if (partitions == null || partitions.isEmpty()) {
            errors.add(new FieldError("partitions", "must list at least one partition (DELETE /inventory/sites/{site} removes a site)"));
        }
        Map<String, NodeSpec> nodes = new LinkedHashMap<>();
        List<Partition> quotas = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; partitions != null && i < partitions.size(); i++) {
            partition(i, partitions.get(i), names, nodes, quotas, errors);
        }
        if (errors.isEmpty() && nodes.isEmpty()) {
            errors.add(new FieldError("partitions", "list no nodes"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new Cluster(new Site(site, Site.Kind.DATACENTER), List.copyOf(nodes.values()), quotas, List.of(),
                Topology.DEFAULT);
    }

    private static void partition(int i, PartitionBody p, Set<String> names, Map<String, NodeSpec> nodes,
                                  List<Partition> quotas, List<FieldError> errors) {
        String at = "partitions[" + i + "].";
        if (p == null || p.name() == null || p.name().isBlank()) {
            errors.add(new FieldError(at + "name", "is required"));
            return;
        }
        if (!names.add(p.name())) {
            errors.add(new FieldError(at + "name", "partition " + p.name() + " is listed twice"));
        }
        int gpus = orZero(p.gpusPerNode());
        long cpus = orZero(p.cpusPerNode());
        long memory = p.memoryMbPerNode() == null ? 0 : p.memoryMbPerNode();
        long gpuMemory = p.gpuMemoryMib() == null ? 0 : p.gpuMemoryMib();
        int before = errors.size();
        notNegative(errors, at + "gpusPerNode", gpus);
        notNegative(errors, at + "cpusPerNode", cpus);
        notNegative(errors, at + "memoryMbPerNode", memory);
        notNegative(errors, at + "gpuMemoryMib", gpuMemory);
        notNegative(errors, at + "quotaGpus", orZero(p.quotaGpus()));
        if (p.nodes() == null || p.nodes().isEmpty() || p.nodes().stream().anyMatch(n -> n == null || n.isBlank())) {
            errors.add(new FieldError(at + "nodes", "must name at least one node, and no blank names"));
        }
        if (errors.size() > before) {
            return;
        }
        for (String node : p.nodes()) {
            nodes.putIfAbsent(node, new NodeSpec(node, "", gpus, p.gpuModel(), gpuMemory, cpus * 1000, memory));
        }
        quotas.add(new Partition(p.name(), p.quotaGpus() != null ? p.quotaGpus() : gpus * p.nodes().size()));
    }

    private static void notNegative(List<FieldError> errors, String field, long value) {
        if (value < 0) {
            errors.add(new FieldError(field, "must not be negative, was " + value));
        }
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
