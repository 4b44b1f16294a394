package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.planner.PlacementRequest.Kind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What every request asks of one inventory, worked out once: sites by name, the sites serving each kind, the GPU
 * models and loaded models they have, and each cluster's GPUs per GPU model. Without it each request walked every
 * node of every site (10,000 GPUs on 1,250 nodes) to validate itself, and each heartbeat searched the cluster list
 * by name for every site with jobs in flight. A cluster's GPU shape is kept by identity across inventories, so a
 * heartbeat that changes one gateway's status does not recount the datacenter's nodes.
 */
final class InventoryIndex {
    /** One cluster's GPUs: per GPU model the largest node's count and the total, and the same over all models. */
    record GpuShape(Map<String, int[]> byModel, int largestNode, int total) {
        static GpuShape of(Cluster c) {
            Map<String, int[]> byModel = new HashMap<>();
            int largest = 0;
            int total = 0;
            for (NodeSpec n : c.nodes()) {
                if (n.gpus() > 0) {
                    int[] m = byModel.computeIfAbsent(n.gpuModel(), k -> new int[2]);
                    m[0] = Math.max(m[0], n.gpus());
                    m[1] += n.gpus();
                    largest = Math.max(largest, n.gpus());
                    total += n.gpus();
                }
            }
            return new GpuShape(byModel, largest, total);
        }

        /** The largest node's GPUs of the accepted models (empty = any). */
        int largestNode(Set<String> accepted) {
            if (accepted.isEmpty()) {
                return largestNode;
            }
            int largest = 0;
            for (String m : accepted) {
                int[] counts = byModel.get(m);
                largest = counts == null ? largest : Math.max(largest, counts[0]);
            }
            return largest;
        }

        /** The cluster's GPUs of the accepted models (empty = any). */
        int total(Set<String> accepted) {
            if (accepted.isEmpty()) {
                return total;
            }
            int sum = 0;
            for (String m : accepted) {
                int[] counts = byModel.get(m);
                sum += counts == null ? 0 : counts[1];
            }
            return sum;
        }
    }

    /** The sites serving one kind of job, with what they hold. */
    record KindView(List<Cluster> sites, Set<String> gpuModels, boolean anyModel, Set<String> loadedModels) {
    }

    private final Inventory inventory;
    private final Map<String, Cluster> byName;
    private final Map<Cluster, GpuShape> shapes;
    /** Made at the first request after a change: heartbeats often come several between two requests. */
    private final Map<Kind, KindView> kinds = new EnumMap<>(Kind.class);

    private InventoryIndex(Inventory inventory, Map<String, Cluster> byName, Map<Cluster, GpuShape> shapes) {
        this.inventory = inventory;
        this.byName = byName;
        this.shapes = shapes;
    }

    static InventoryIndex of(Inventory inventory) {
        return new InventoryIndex(inventory, names(inventory), shapes(inventory, Map.of()));
    }

    /**
     * The index of {@code next}. When its clusters are the very ones of this inventory (a heartbeat changed a
     * status, not a shape), the lookups by name and the GPU shapes are kept; otherwise a shape is kept for each
     * cluster that is still the same object.
     */
    InventoryIndex next(Inventory next) {
        if (next == inventory) {
            return this;
        }
        return sameClusters(next.clusters(), inventory.clusters())
                ? new InventoryIndex(next, byName, shapes)
                : new InventoryIndex(next, names(next), shapes(next, shapes));
    }

    private static boolean sameClusters(List<Cluster> a, List<Cluster> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Cluster> names(Inventory inventory) {
        Map<String, Cluster> byName = new HashMap<>(inventory.clusters().size() * 2);
        for (Cluster c : inventory.clusters()) {
            byName.putIfAbsent(c.site().name(), c); // the first of a name wins, as Inventory.cluster's search does
        }
        return byName;
    }

    private static Map<Cluster, GpuShape> shapes(Inventory inventory, Map<Cluster, GpuShape> before) {
        Map<Cluster, GpuShape> shapes = new IdentityHashMap<>(inventory.clusters().size() * 2);
        for (Cluster c : inventory.clusters()) {
            GpuShape s = before.get(c);
            shapes.put(c, s != null ? s : GpuShape.of(c));
        }
        return shapes;
    }

    private KindView view(Kind kind) {
        List<Cluster> sites = new ArrayList<>();
        Set<String> gpuModels = new TreeSet<>();
        Set<String> loaded = new TreeSet<>();
        boolean anyModel = false;
        for (Cluster c : inventory.clusters()) {
            SiteStatus status = inventory.statusOf(c);
            if (status.serves(kind)) {
                sites.add(c);
                gpuModels.addAll(shapes.get(c).byModel().keySet());
                anyModel |= status.models().isEmpty();
                loaded.addAll(status.models());
            }
        }
        return new KindView(Collections.unmodifiableList(sites), Collections.unmodifiableSet(gpuModels), anyModel,
                Collections.unmodifiableSet(loaded));
    }

    Inventory inventory() {
        return inventory;
    }

    /** The cluster of a site, or null. */
    Cluster cluster(String site) {
        return byName.get(site);
    }

    GpuShape shape(Cluster c) {
        GpuShape s = shapes.get(c);
        return s != null ? s : GpuShape.of(c);
    }

    KindView serving(Kind kind) {
        return kinds.computeIfAbsent(kind, this::view);
    }
}
