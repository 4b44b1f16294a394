package dev.continuum.provider.training.planner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.TrainingBackend;
import java.util.Optional;

/**
 * Tells the placement planner what the backend offers ({@code PUT /inventory/partitions} through the
 * planner contract's {@link PlannerClient}, docs/placement.md): the site and its partitions (local GPU slots, Slurm partitions,
 * Kubernetes queues) in the shape of {@link BackendInventory}. {@link #check()} reports at start-up and whenever
 * the inventory changed since the last report the planner accepted, so a refused or failed report is tried again
 * at the next check; a backend that cannot be reached is reported {@code online: false} (the planner keeps the site
 * but places nothing there).
 */
public final class PartitionReporter {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether a report went out, and what the planner answered (its status; 0 when it could not be reached). */
    public record Outcome(boolean sent, int status, String detail) {}

    private final TrainingBackend backend;
    private final PlannerClient planner;
    private JsonNode lastAccepted;

    public PartitionReporter(TrainingBackend backend, PlannerClient planner) {
        this.backend = backend;
        this.planner = planner;
    }

    /** Reports the inventory if it differs from the last one the planner accepted. */
    public synchronized Outcome check() {
        Optional<JsonNode> now = body();
        if (now.isEmpty()) {
            return new Outcome(false, 0, "the backend cannot be reached and was never reported");
        }
        if (now.get().equals(lastAccepted)) {
            return new Outcome(false, 0, "unchanged");
        }
        try {
            JsonNode answer = planner.reportPartitions(now.get());
            lastAccepted = now.get();
            return new Outcome(true, 200, String.valueOf(answer));
        } catch (PlannerClient.PlannerException e) {
            return new Outcome(true, e.status(), e.getMessage());
        } catch (RuntimeException e) {
            return new Outcome(true, 0, "no token for the planner: " + e.getMessage()); // the identity provider refused or is away
        }
    }

    /** The {@code PUT /inventory/partitions} body for the backend as it is now; empty if that cannot be known. */
    Optional<JsonNode> body() {
        ObjectNode doc = JSON.createObjectNode();
        try {
            BackendInventory inventory = backend.inventory();
            doc.put("site", inventory.site()).put("backend", backend.name()).put("online", true);
            ArrayNode partitions = doc.putArray("partitions");
            for (BackendInventory.PartitionInventory p : inventory.partitions()) {
                ObjectNode n = partitions.addObject().put("name", p.name()).put("default", p.isDefault())
                        .put("gpusPerNode", p.gpusPerNode()).put("cpusPerNode", p.cpusPerNode())
                        .put("memoryMbPerNode", p.memoryMbPerNode());
                p.gpuModel().ifPresent(m -> n.put("gpuModel", m));
                p.nodes().forEach(n.putArray("nodes")::add);
            }
            return Optional.of(doc);
        } catch (BackendException e) {
            // unreachable: keep the site the planner knows, but let it place nothing there
            return Optional.ofNullable(lastAccepted).map(known -> ((ObjectNode) known.deepCopy()).put("online", false));
        }
    }
}
