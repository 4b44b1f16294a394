package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.RunDriver;
import dev.continuum.engine.config.EngineConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;

/** Starts the driver's periodic scan for due runs when the engine starts, and stops it at shutdown. */
@ApplicationScoped
public class ScanTimer {

    private static final Logger LOG = Logger.getLogger(ScanTimer.class);

    private final RunDriver driver;
    private final Vertx vertx;
    private final Duration interval;
    private long timer = -1;

    public ScanTimer(RunDriver driver, Vertx vertx, EngineConfig config) {
        this.driver = driver;
        this.vertx = vertx;
        this.interval = config.runs().scanInterval();
    }

    void start(@Observes StartupEvent event) {
        timer = vertx.setPeriodic(interval.toMillis(), id -> driver.scan());
        LOG.infof("run driver %s started; scanning every %s", driver.instanceId(), interval);
    }

    void stop(@Observes ShutdownEvent event) {
        driver.stop();
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
