package dev.continuum.placement.service.adapters.mqtt;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * Each site's queue and GPU use as gauges for the dashboard (deploy/grafana/continuum.json, row "Planner"), read from
 * the planner's live view at each scrape. A gauge exists once the planner has heard of its site; a site gone reads NaN
 * (Prometheus drops the sample) rather than a value it no longer has.
 */
final class SiteMetrics {

    private final LiveInventory inventory;
    private final GpuHistory gpuHistory;
    private final MeterRegistry registry;

    SiteMetrics(LiveInventory inventory, GpuHistory gpuHistory, MeterRegistry registry) {
        this.inventory = inventory;
        this.gpuHistory = gpuHistory;
        this.registry = registry;
    }

    /** Gauges for every site of the inventory; registering a site again is a no-op (Micrometer keeps the first). */
    void watchSites() {
        for (Cluster c : inventory.snapshot().clusters()) {
            String site = c.site().name();
            Gauge.builder("continuum.placement.site.queued", () -> queued(site)).tag("site", site)
                    .description("Jobs queued at a site, as its gateway or reports last said").register(registry);
            Gauge.builder("continuum.placement.site.gpu.utilization", () -> gpuUtilization(site)).tag("site", site)
                    .baseUnit("percent").description("Mean utilisation of a site's GPUs at its last heartbeat")
                    .register(registry);
        }
    }

    private double queued(String site) {
        Inventory now = inventory.snapshot();
        Cluster cluster = now.cluster(site);
        return cluster == null ? Double.NaN : now.statusOf(cluster).queuedTasks();
    }

    private double gpuUtilization(String site) {
        List<GpuHistory.Sample> samples = gpuHistory.samples(site);
        if (samples.isEmpty() || samples.getLast().gpus().isEmpty()) {
            return Double.NaN; // no heartbeat with GPU readings (a configured site, or a gateway without GPUs)
        }
        return samples.getLast().gpus().stream().mapToInt(GpuHistory.Gpu::utilizationPercent).average().orElse(Double.NaN);
    }
}
