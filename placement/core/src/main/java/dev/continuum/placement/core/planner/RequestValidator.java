package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.planner.InvalidRequestException.FieldError;
import dev.continuum.placement.core.planner.PlacementRequest.Kind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a request that no change of load or liveness would make placeable — an unknown model, endpoint, GPU
 * model or partition, more GPUs than any site of its kind has, a deadline already past — naming every bad field.
 * Whether a site is up or busy is not checked here: that makes a job queued or unplaceable, not invalid.
 */
final class RequestValidator {
    private RequestValidator() {
    }

    static void validate(PlacementRequest r, InventoryIndex index, long nowMillis, boolean lending) {
        Inventory inventory = index.inventory();
        List<FieldError> errors = new ArrayList<>();
        if (r.deadlineEpochSeconds() > 0 && r.deadlineEpochSeconds() * 1000 <= nowMillis) {
            errors.add(new FieldError("deadlineEpochSeconds", "is in the past: "
                    + Instant.ofEpochSecond(r.deadlineEpochSeconds()) + " is not after now, " + Instant.ofEpochMilli(nowMillis)));
        }
        InventoryIndex.KindView serving = index.serving(r.kind());
        if (r.kind() == Kind.INFERENCE) {
            checkModel(r, serving, errors);
            for (int i = 0; i < r.data().size(); i++) {
                String endpoint = r.data().get(i).endpointId();
                if (!inventory.siteByEndpoint().containsKey(endpoint)) {
                    errors.add(new FieldError("data[" + i + "].endpointId", "unknown endpoint '" + endpoint
                            + "'; the inventory knows " + Words.sorted(inventory.siteByEndpoint().keySet())));
                }
            }
        }
        boolean gpuModelsKnown = checkGpuModels(r, serving, errors);
        if (gpuModelsKnown && !serving.sites().isEmpty()) {
            checkGpuCount(r, index, serving.sites(), lending, errors);
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
    }

    private static void checkModel(PlacementRequest r, InventoryIndex.KindView serving, List<FieldError> errors) {
        if (r.model().isBlank()) {
            errors.add(new FieldError("model", "is required for inference"));
            return;
        }
        // a site listing no models loads any on demand: then no name is unknown
        Set<String> known = serving.loadedModels();
        if (!serving.anyModel() && !known.isEmpty() && !known.contains(r.model())) {
            errors.add(new FieldError("model", "unknown model '" + r.model() + "'; the inventory has " + known));
        }
    }

    private static boolean checkGpuModels(PlacementRequest r, InventoryIndex.KindView serving, List<FieldError> errors) {
        Set<String> known = serving.gpuModels();
        boolean ok = true;
        for (String m : new TreeSet<>(r.demand().gpuModels())) {
            if (!known.contains(m)) {
                errors.add(new FieldError("demand.gpuModels", "unknown GPU model '" + m + "'; sites serving "
                        + r.kind().name().toLowerCase(java.util.Locale.ROOT) + " have " + known));
                ok = false;
            }
        }
        return ok;
    }

    private static void checkGpuCount(PlacementRequest r, InventoryIndex index, List<Cluster> sites, boolean lending,
                                      List<FieldError> errors) {
        int need = r.neededGpus();
        if (need == 0) {
            return;
        }
        Set<String> accepted = r.demand().gpuModels();
        int largestNode = 0;
        int largestCluster = 0;
        String largestName = "";
        for (Cluster c : sites) {
            InventoryIndex.GpuShape shape = index.shape(c);
            largestNode = Math.max(largestNode, shape.largestNode(accepted));
            int total = shape.total(accepted);
            if (total > largestCluster) {
                largestCluster = total;
                largestName = c.site().name();
            }
        }
        String asks = "asks for " + Words.plural(need, "GPU");
        if (r.kind() == Kind.INFERENCE && need > largestNode) {
            errors.add(new FieldError(r.neededGpusField(), asks + ", the largest node serving inference has " + largestNode));
        } else if (r.kind() == Kind.TRAINING && need > largestCluster) {
            errors.add(new FieldError(r.neededGpusField(), asks + ", the largest training cluster ("
                    + largestName + ") has " + largestCluster));
        }
        if (r.kind() == Kind.TRAINING && !r.partition().isEmpty()) {
            checkPartition(r, sites, lending, need, errors);
        }
    }

    private static void checkPartition(PlacementRequest r, List<Cluster> sites, boolean lending, int need,
                                       List<FieldError> errors) {
        Set<String> known = new TreeSet<>();
        for (Cluster c : sites) {
            for (Partition p : c.partitions()) {
                known.add(p.name());
                if (p.name().equals(r.partition()) && !lending && p.quotaGpus() < need) {
                    errors.add(new FieldError(r.neededGpusField(), "asks for " + Words.plural(need, "GPU")
                            + ", partition " + p.name() + " has a quota of " + p.quotaGpus()
                            + " and the policy does not lend"));
                }
            }
        }
        if (!known.contains(r.partition())) {
            errors.add(new FieldError("partition", "unknown partition '" + r.partition() + "'; the inventory has " + known));
        }
    }
}
