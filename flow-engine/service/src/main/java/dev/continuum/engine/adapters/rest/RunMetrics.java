package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.RunStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Runs by status as Prometheus gauges, refreshed from the database (so every instance agrees). */
@ApplicationScoped
public class RunMetrics {

    private final RunStore runs;
    private final Map<RunStatus, AtomicLong> counts = new EnumMap<>(RunStatus.class);

    public RunMetrics(RunStore runs, MeterRegistry registry) {
        this.runs = runs;
        for (RunStatus status : RunStatus.values()) {
            AtomicLong count = new AtomicLong();
            counts.put(status, count);
            Gauge.builder("continuum.runs", count, AtomicLong::get).tag("status", status.name())
                    .description("Runs by status").register(registry);
        }
    }

    @Scheduled(every = "10s", delayed = "2s")
    Uni<Void> refresh() {
        return runs.countByStatus().invoke(found -> counts.forEach((status, count) ->
                count.set(found.getOrDefault(status.name(), 0L)))).replaceWithVoid();
    }
}
