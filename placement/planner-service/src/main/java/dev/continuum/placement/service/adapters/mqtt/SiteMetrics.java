package dev.continuum.placement.service.adapters.mqtt;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlannerService;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * Each site's queue, predicted queue wait and GPU use as gauges for the dashboard (deploy/grafana/continuum.json, row "Planner"), read from
 * the planner's live view at each scrape. A gauge exists once the planner has heard of its site; a site gone reads NaN
 * (Prometheus drops the sample) rather than a value it no longer has; the predicted wait reads NaN until a job has
 * been placed there.
 */
final class SiteMetrics {

    private final LiveInventory inventory;
    private final GpuHistory gpuHistory;
    private final PlannerService planner;
    private final MeterRegistry registry;

    SiteMetrics(LiveInventory inventory, GpuHistory gpuHistory, PlannerService planner, MeterRegistry registry) {
        this.inventory = inventory;
        this.gpuHistory = gpuHistory;
        this.planner = planner;
        this.registry = registry;
    }

    /** Gauges for every site of the inventory; registering a site again is a no-op (Micrometer keeps the first). */
    void watchSites() {
        for (Cluster c : inventory.snapshot().clusters()) {
            String site = c.site().name();
            Gauge.builder("continuum.placement.site.queued", () -> queued(site)).tag("site", site)
                    .description("Jobs queued at a site, as its gateway or reports last said").register(registry);
            Gauge.builder("continuum.placement.site.predicted.wait", () -> predictedWaitSeconds(site)).tag("site", site)
                    .baseUnit("seconds").description("Queue wait predicted by the last decision placing a job at a site")
                    .register(registry);
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

    private double predictedWaitSeconds(String site) {
        return planner.lastPredictedQueueMillis(site).stream().mapToDouble(millis -> millis / 1000.0).findFirst()
                .orElse(Double.NaN);
    }

    private double gpuUtilization(String site) {
        List<GpuHistory.Sample> samples = gpuHistory.samples(site);
        if (samples.isEmpty() || samples.getLast().gpus().isEmpty()) {
            return Double.NaN; // no heartbeat with GPU readings (a configured site, or a gateway without GPUs)
        }
        return samples.getLast().gpus().stream().mapToInt(GpuHistory.Gpu::utilizationPercent).average().orElse(Double.NaN);
    }
}
