package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.RunRetention;
import dev.continuum.engine.config.EngineConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * Purges expired finished runs every {@code continuum.retention.every} when {@code continuum.retention.finished-runs}
 * is set. Every instance runs it; their deletes skip each other's rows, so running it twice costs nothing.
 */
@ApplicationScoped
public class RetentionTimer {

    private static final Logger LOG = Logger.getLogger(RetentionTimer.class);

    private final RunRetention retention;
    private final Vertx vertx;
    private final Duration every;
    private long timer = -1;

    public RetentionTimer(RunRetention retention, Vertx vertx, EngineConfig config) {
        this.retention = retention;
        this.vertx = vertx;
        this.every = config.retention().every();
    }

    void start(@Observes StartupEvent event) {
        if (retention.keep().isEmpty()) {
            return;
        }
        timer = vertx.setPeriodic(1_000, Math.max(1_000, every.toMillis()), id -> purge());
        LOG.infof("retention: finished runs are purged %s after they finish, checked every %s", retention.keep().get(), every);
    }

    private void purge() {
        retention.purgeExpired().subscribe().with(
                purged -> {
                    if (purged.runs() > 0) {
                        LOG.infof("retention: purged %d runs that finished before %s", purged.runs(), purged.finishedBefore());
                    }
                },
                e -> LOG.warnf("retention: purging expired runs failed, trying again in %s: %s", every, e.getMessage()));
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
