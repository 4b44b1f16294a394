package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.EngineMetrics;
import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.RunStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's Prometheus meters (docs/operations.md "Metrics"): what this instance committed — transitions, runs
 * started and finished (rates give runs/s) — and, from the database so that every instance agrees, runs by status
 * and the queue of due runs no instance holds, with how long its oldest has waited.
 */
@ApplicationScoped
public class RunMetrics implements EngineMetrics {

    private final RunStore runs;
    private final Clock clock;
    private final Counter transitions;
    private final Counter started;
    private final Map<RunStatus, Counter> finished = new EnumMap<>(RunStatus.class);
    private final Map<RunStatus, AtomicLong> counts = new EnumMap<>(RunStatus.class);
    private final AtomicLong due = new AtomicLong();
    private final AtomicLong dueLagMillis = new AtomicLong();

    public RunMetrics(RunStore runs, MeterRegistry registry, Clock clock) {
        this.runs = runs;
        this.clock = clock;
        this.transitions = Counter.builder("continuum.transitions").description("Committed run state transitions")
                .register(registry);
        this.started = Counter.builder("continuum.runs.started").description("Runs started (committed) by this instance")
                .register(registry);
        for (RunStatus status : RunStatus.values()) {
            AtomicLong count = new AtomicLong();
            counts.put(status, count);
            Gauge.builder("continuum.runs", count, AtomicLong::get).tag("status", status.name())
                    .description("Runs by status").register(registry);
            if (status.finished()) {
                finished.put(status, Counter.builder("continuum.runs.finished").tag("status", status.name())
                        .description("Runs that reached a final status, committed by this instance").register(registry));
            }
        }
        Gauge.builder("continuum.runs.due", due, AtomicLong::get)
                .description("Runs due (timer, poll, takeover) that no instance holds: the engine's queue").register(registry);
        Gauge.builder("continuum.runs.due.lag", dueLagMillis, millis -> millis.get() / 1000.0).baseUnit("seconds")
                .description("How long the oldest due run nobody holds has waited (lease lag)").register(registry);
    }

    @Override
    public void transitionsCommitted(int count) {
        transitions.increment(count);
    }

    /** Counts a committed change: a start, or a run reaching its final status. */
    public void changed(RunChanged change) {
        if (change.previousStatus() == null) {
            started.increment();
        }
        RunStatus status = RunStatus.valueOf(change.status());
        if (change.statusChanged() && finished.containsKey(status)) {
            finished.get(status).increment();
        }
    }

    @Scheduled(every = "10s", delayed = "2s")
    Uni<Void> refresh() {
        return runs.countByStatus().invoke(found -> counts.forEach((status, count) ->
                        count.set(found.getOrDefault(status.name(), 0L))))
                .chain(() -> runs.dueBacklog(clock.instant())).invoke(backlog -> {
                    due.set(backlog.runs());
                    dueLagMillis.set(backlog.oldestWait().toMillis());
                }).replaceWithVoid();
    }
}
