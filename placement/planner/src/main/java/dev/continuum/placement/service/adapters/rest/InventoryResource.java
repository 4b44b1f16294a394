package dev.continuum.placement.service.adapters.rest;

import dev.continuum.placement.model.Cluster;
import dev.continuum.placement.model.NodeSpec;
import dev.continuum.placement.planner.Inventory;
import dev.continuum.placement.planner.SiteStatus;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Locale;

/**
 * The planner's inventory as it is now, for people (the web UI's devices and clusters page): every site, up or
 * down, its queue, loaded models and GPUs, and for gateways the GPU readings of their recent heartbeats.
 */
@Path("/inventory")
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    private final LiveInventory inventory;
    private final GpuHistory gpuHistory;

    public InventoryResource(LiveInventory inventory, GpuHistory gpuHistory) {
        this.inventory = inventory;
        this.gpuHistory = gpuHistory;
    }

    /** {@code version} grows at every change the planner sees. */
    record InventoryView(long version, List<SiteView> sites) {}

    /** {@code models}: loaded models, empty when the site loads any on demand; {@code gpuSamples} oldest first. */
    record SiteView(String name, String kind, boolean online, int queuedTasks, List<String> models, List<String> serves,
                    int nodes, int gpus, String gpuModel, List<GpuHistory.Sample> gpuSamples) {}

    @GET
    public InventoryView get() {
        long version = inventory.version();
        Inventory now = inventory.snapshot();
        return new InventoryView(version, now.clusters().stream().map(c -> site(c, now.statusOf(c))).toList());
    }

    private SiteView site(Cluster c, SiteStatus s) {
        String name = c.site().name();
        return new SiteView(name, c.site().kind().name().toLowerCase(Locale.ROOT), s.online(), s.queuedTasks(),
                s.models().stream().sorted().toList(), s.serves().stream().map(k -> k.name().toLowerCase(Locale.ROOT)).sorted().toList(),
                c.nodes().size(), c.totalGpus(), c.nodes().stream().map(NodeSpec::gpuModel).filter(m -> !m.isBlank()).findFirst().orElse(""),
                gpuHistory.samples(name));
    }
}
