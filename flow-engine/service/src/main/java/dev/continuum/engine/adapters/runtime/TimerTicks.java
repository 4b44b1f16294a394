package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.triggers.TimerService;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Looks for due timer ticks every second; a tick fired by two instances at once still starts one run (dedup key). */
@ApplicationScoped
public class TimerTicks {

    private final TimerService timers;

    public TimerTicks(TimerService timers) {
        this.timers = timers;
    }

    @Scheduled(every = "1s", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return timers.tick();
    }
}
