package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.EngineMetrics;
import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.RunStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's Prometheus meters: committed transitions (this instance's), and runs by status as
 * gauges refreshed from the database (so every instance agrees).
 */
@ApplicationScoped
public class RunMetrics implements EngineMetrics {

    private final RunStore runs;
    private final Counter transitions;
    private final Map<RunStatus, AtomicLong> counts = new EnumMap<>(RunStatus.class);

    public RunMetrics(RunStore runs, MeterRegistry registry) {
        this.runs = runs;
        this.transitions = Counter.builder("continuum.transitions").description("Committed run state transitions")
                .register(registry);
        for (RunStatus status : RunStatus.values()) {
            AtomicLong count = new AtomicLong();
            counts.put(status, count);
            Gauge.builder("continuum.runs", count, AtomicLong::get).tag("status", status.name())
                    .description("Runs by status").register(registry);
        }
    }

    @Override
    public void transitionsCommitted(int count) {
        transitions.increment(count);
    }

    @Scheduled(every = "10s", delayed = "2s")
    Uni<Void> refresh() {
        return runs.countByStatus().invoke(found -> counts.forEach((status, count) ->
                count.set(found.getOrDefault(status.name(), 0L)))).replaceWithVoid();
    }
}
