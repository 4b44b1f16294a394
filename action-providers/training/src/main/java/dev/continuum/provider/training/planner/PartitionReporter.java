package dev.continuum.provider.training.planner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.TrainingBackend;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Tells the placement planner what the backend offers ({@code PUT /inventory/partitions}, docs/placement.md):
 * the site and its partitions (local GPU slots, Slurm partitions, Kubernetes queues) in the shape of
 * {@link BackendInventory}. {@link #check()} reports at start-up and whenever the inventory changed since the
 * last report the planner accepted, so a failed report is tried again at the next check; a backend that cannot
 * be reached is reported {@code online: false} (the planner keeps the site but places nothing there).
 */
public final class PartitionReporter {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the planner answered, or why it could not be told. */
    public record Outcome(boolean sent, int status, String body) {}

    private final TrainingBackend backend;
    private final URI endpoint;
    private final Supplier<String> token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String lastAccepted;

    public PartitionReporter(TrainingBackend backend, URI plannerUrl, Supplier<String> token) {
        this.backend = backend;
        this.endpoint = plannerUrl.resolve("/inventory/partitions");
        this.token = token;
    }

    /** Reports the inventory if it differs from the last one the planner accepted; {@code sent} false if it did not. */
    public synchronized Outcome check() {
        Optional<String> now = body();
        if (now.isEmpty()) {
            return new Outcome(false, 0, "the backend cannot be reached and was never reported");
        }
        String body = now.get();
        if (body.equals(lastAccepted)) {
            return new Outcome(false, 0, "unchanged");
        }
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token.get()).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                lastAccepted = body;
            }
            return new Outcome(true, answer.statusCode(), answer.body());
        } catch (IOException | RuntimeException e) {
            return new Outcome(true, 0, "planner at " + endpoint + " cannot be reached: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(true, 0, "interrupted");
        }
    }

    /** The {@code PUT /inventory/partitions} body for the backend as it is now; empty if that cannot be known. */
    Optional<String> body() {
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
        } catch (BackendException e) {
            // unreachable: keep the site the planner knows, but let it place nothing there
            if (lastAccepted == null) {
                return Optional.empty();
            }
            try {
                ObjectNode known = (ObjectNode) JSON.readTree(lastAccepted);
                return Optional.of(known.put("online", false).toString());
            } catch (IOException unreadable) {
                throw new IllegalStateException(unreadable);
            }
        }
        return Optional.of(doc.toString());
    }
}
