package dev.continuum.placement.service.adapters.rest;

import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.config.PlannerSettings;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/** Gives the planner a round every {@code continuum.placement.tick-seconds}: deferred jobs start when their window opens. */
@ApplicationScoped
public class PlannerTicker {

    private static final Logger LOG = Logger.getLogger(PlannerTicker.class);

    private final PlannerService planner;
    private final PlannerSettings settings;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "planner-tick");
        t.setDaemon(true);
        return t;
    });

    public PlannerTicker(PlannerService planner, PlannerSettings settings) {
        this.planner = planner;
        this.settings = settings;
    }

    void start(@Observes StartupEvent started) {
        long every = Math.max(1, settings.tickSeconds());
        timer.scheduleAtFixedRate(() -> {
            try {
                planner.tick();
            } catch (RuntimeException e) {
                LOG.error("the planner's periodic round failed", e);
            }
        }, every, every, TimeUnit.SECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        timer.shutdownNow();
    }
}
