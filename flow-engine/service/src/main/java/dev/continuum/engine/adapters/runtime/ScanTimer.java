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

/**
 * Starts the driver's periodic scan for due runs and its heartbeat (every third of a lease, so one late beat does not
 * make this process look dead) when the engine starts, and stops them at shutdown.
 */
@ApplicationScoped
public class ScanTimer {

    private static final Logger LOG = Logger.getLogger(ScanTimer.class);

    private final RunDriver driver;
    private final Vertx vertx;
    private final Duration interval;
    private final Duration heartbeatInterval;
    private long timer = -1;
    private long heartbeat = -1;

    public ScanTimer(RunDriver driver, Vertx vertx, EngineConfig config) {
        this.driver = driver;
        this.vertx = vertx;
        this.interval = config.runs().scanInterval();
        this.heartbeatInterval = config.runs().leaseDuration().dividedBy(3);
    }

    void start(@Observes StartupEvent event) {
        driver.heartbeat();
        heartbeat = vertx.setPeriodic(Math.max(1, heartbeatInterval.toMillis()), id -> driver.heartbeat());
        timer = vertx.setPeriodic(interval.toMillis(), id -> driver.scan());
        LOG.infof("run driver %s started; scanning every %s", driver.instanceId(), interval);
    }

    void stop(@Observes ShutdownEvent event) {
        driver.stop();
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (heartbeat >= 0) {
            vertx.cancelTimer(heartbeat);
        }
    }
}
