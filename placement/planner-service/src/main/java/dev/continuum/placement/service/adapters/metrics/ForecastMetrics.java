package dev.continuum.placement.service.adapters.metrics;

import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.service.app.PlannerService;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The planner's forecasts as gauges per model, site and horizon — the rate expected, and the chosen method's recent
 * sMAPE and interval coverage — refreshed every 15 s from the planner (not at each scrape: the planner is locked
 * while it decides). A series reads NaN (Prometheus drops it) until its method has been scored.
 */
@ApplicationScoped
public class ForecastMetrics {

    private static final Logger LOG = Logger.getLogger(ForecastMetrics.class);
    private final PlannerService planner;
    private final MeterRegistry registry;
    private final Map<Tags, Forecast> latest = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "forecast-metrics");
        t.setDaemon(true);
        return t;
    });

    public ForecastMetrics(PlannerService planner, MeterRegistry registry) {
        this.planner = planner;
        this.registry = registry;
    }

    void start(@Observes StartupEvent started) {
        timer.scheduleAtFixedRate(this::refresh, 1, 15, TimeUnit.SECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        timer.shutdownNow();
    }

    void refresh() {
        try {
            for (Forecast f : planner.forecasts()) {
                Tags tags = Tags.of("model", f.series().model(), "site", f.series().site(),
                        "horizon", (f.horizonMillis() / 1000) + "s");
                if (latest.put(tags, f) == null) {
                    Gauge.builder("continuum.placement.forecast.rate", () -> latest.get(tags).rate()).tags(tags)
                            .description("Inference jobs per second the planner expects at this horizon").register(registry);
                    Gauge.builder("continuum.placement.forecast.smape", () -> latest.get(tags).smape()).tags(tags)
                            .description("Recent sMAPE (0-2) of the method chosen for this series and horizon").register(registry);
                    Gauge.builder("continuum.placement.forecast.coverage", () -> latest.get(tags).coverage()).tags(tags)
                            .description("Share of recent prediction intervals that held the rate that came").register(registry);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("could not read the planner's forecasts for the metrics", e);
        }
    }
}
