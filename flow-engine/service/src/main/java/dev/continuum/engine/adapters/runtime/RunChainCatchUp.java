package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.triggers.RunChains;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Finished runs whose change the run-event stream lost (a crash between commit and publish) still fire their
 * {@code run} triggers: soon after start and then every minute (a run fired twice is a duplicate, never a second run).
 */
@ApplicationScoped
public class RunChainCatchUp {

    private static final Logger LOG = Logger.getLogger(RunChainCatchUp.class);

    private final RunChains chains;

    public RunChainCatchUp(RunChains chains) {
        this.chains = chains;
    }

    @Scheduled(every = "60s", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> catchUp() {
        return chains.catchUp().invoke(fired -> {
            if (fired > 0) {
                LOG.infof("run triggers: %d finished runs the event stream had not delivered were taken up", fired);
            }
        }).onFailure().invoke(e -> LOG.warnf("run triggers: catch-up failed (%s); next minute again", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
