package dev.continuum.placement.service.adapters.rest;

import dev.continuum.placement.api.DecisionView;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.service.adapters.persistence.JdbcSiteReports;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlannerService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The planner's inventory as it is now, for people (the web UI's devices and clusters page): every site, up or
 * down, its queue, loaded models and GPUs, and for gateways the GPU readings of their recent heartbeats. And what
 * backends report (docs/placement.md "Reporting to the planner"): training partitions from the training provider,
 * measured transfer rates from the transfer provider. Every call needs a token.
 */
@Path("/inventory")
@Produces(MediaType.APPLICATION_JSON)
public class InventoryResource {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final LiveInventory inventory;
    private final GpuHistory gpuHistory;
    private final PlannerService planner;
    private final JdbcSiteReports reports;

    public InventoryResource(LiveInventory inventory, GpuHistory gpuHistory, PlannerService planner, JdbcSiteReports reports) {
        this.inventory = inventory;
        this.gpuHistory = gpuHistory;
        this.planner = planner;
        this.reports = reports;
    }

    /** {@code version} grows at every change the planner sees. */
    record InventoryView(long version, List<SiteView> sites) {}

    /**
     * {@code models}: loaded models, empty when the site loads any on demand; {@code gpuSamples} oldest first;
     * {@code partitions}: the quotas of a datacenter site.
     */
    record SiteView(String name, String kind, boolean online, int queuedTasks, List<String> models, List<String> serves,
                    int nodes, int gpus, String gpuModel, List<GpuHistory.Sample> gpuSamples, List<Partition> partitions) {}

    /** The reported site, and what the change made the planner decide (queued jobs starting, jobs left without a site). */
    record ReportedView(SiteView site, List<DecisionView> decisions) {}

    /** A transfer's measured rate, or its bytes and seconds. */
    public record TransferBody(String fromEndpoint, String toEndpoint, Double bytesPerSecond, Long bytes, Double seconds) {}

    record TransferView(String fromEndpoint, String toEndpoint, double bytesPerSecond, boolean used) {}

    @GET
    public InventoryView get() {
        long version = inventory.version();
        Inventory now = inventory.snapshot();
        return new InventoryView(version, now.clusters().stream().map(c -> site(c, now.statusOf(c))).toList());
    }

    /** A backend's site and partitions as they are now; a site of that name (configured or reported) is replaced. */
    @PUT
    @Path("/partitions")
    @Consumes(MediaType.APPLICATION_JSON)
    public ReportedView partitions(PartitionsBody body) {
        if (body == null) {
            throw new InvalidRequestException("", "a body with the site and its partitions is required");
        }
        Cluster cluster = body.toCluster();
        SiteStatus status = PlannerRecovery.status(body);
        reports.save(body.site(), json(body), java.time.Instant.now()); // kept first: a restart must not lose it
        inventory.putSite(cluster, status);
        List<DecisionRecord> decided = planner.inventoryChanged();
        return new ReportedView(site(cluster, status), decided.stream().map(Views::of).toList());
    }

    /** A backend that stopped: its site leaves the inventory; jobs there are logged as left without a site. */
    @DELETE
    @Path("/sites/{site}")
    public List<DecisionView> remove(@PathParam("site") String site) {
        reports.delete(site);
        if (!inventory.removeSite(site)) {
            throw new NotFoundException("no reported site " + site);
        }
        return planner.inventoryChanged().stream().map(Views::of).toList();
    }

    /** What a finished transfer measured between two endpoints: the link model learns it. */
    @POST
    @Path("/transfers")
    @Consumes(MediaType.APPLICATION_JSON)
    public TransferView transfer(TransferBody body) {
        TransferBody b = body == null ? new TransferBody(null, null, null, null, null) : body;
        List<InvalidRequestException.FieldError> errors = new ArrayList<>();
        if (b.fromEndpoint() == null || b.fromEndpoint().isBlank()) {
            errors.add(new InvalidRequestException.FieldError("fromEndpoint", "is required"));
        }
        if (b.toEndpoint() == null || b.toEndpoint().isBlank()) {
            errors.add(new InvalidRequestException.FieldError("toEndpoint", "is required"));
        }
        double rate = rate(b, errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        boolean used = planner.transferMeasured(b.fromEndpoint(), b.toEndpoint(), rate);
        return new TransferView(b.fromEndpoint(), b.toEndpoint(), rate, used);
    }

    private static double rate(TransferBody b, List<InvalidRequestException.FieldError> errors) {
        if (b.bytesPerSecond() != null) {
            if (!(b.bytesPerSecond() > 0) || b.bytesPerSecond().isInfinite()) {
                errors.add(new InvalidRequestException.FieldError("bytesPerSecond", "must be positive, was " + b.bytesPerSecond()));
            }
            return b.bytesPerSecond();
        }
        if (b.bytes() == null || b.seconds() == null) {
            errors.add(new InvalidRequestException.FieldError("bytesPerSecond", "is required, or bytes and seconds"));
            return 0;
        }
        if (b.bytes() <= 0) {
            errors.add(new InvalidRequestException.FieldError("bytes", "must be positive, was " + b.bytes()));
        }
        if (!(b.seconds() > 0)) {
            errors.add(new InvalidRequestException.FieldError("seconds", "must be positive, was " + b.seconds()));
        }
        return b.bytes() / b.seconds();
    }

    private static String json(PartitionsBody body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private SiteView site(Cluster c, SiteStatus s) {
        String name = c.site().name();
        return new SiteView(name, c.site().kind().name().toLowerCase(Locale.ROOT), s.online(), s.queuedTasks(),
                s.models().stream().sorted().toList(), s.serves().stream().map(k -> k.name().toLowerCase(Locale.ROOT)).sorted().toList(),
                c.nodes().size(), c.totalGpus(), c.nodes().stream().map(NodeSpec::gpuModel).filter(m -> !m.isBlank()).findFirst().orElse(""),
                gpuHistory.samples(name), c.partitions());
    }
}
