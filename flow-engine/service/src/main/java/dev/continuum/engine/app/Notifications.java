package dev.continuum.engine.app;

import dev.continuum.engine.config.EngineConfig;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.RunStatus;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Tells a run's owner that it reached a status its activity_notification_policy names (Globus: INACTIVE, SUCCEEDED,
 * FAILED). Sent after the transition is committed, off the run's path: a slow or failing channel never delays or
 * fails the run. Each channel is retried with backoff; what is still undelivered when the engine stops is lost
 * (notices are a courtesy, the run's status and log are the record).
 */
@ApplicationScoped
public class Notifications {

    private static final Logger LOG = Logger.getLogger(Notifications.class);

    /** The statuses Globus lets a policy name. */
    public static final Set<String> STATUSES = Set.of(RunStatus.INACTIVE.name(), RunStatus.SUCCEEDED.name(),
            RunStatus.FAILED.name());

    private final List<Notifier> channels;
    private final Clock clock;
    private final int attempts;
    private final Duration backoff;

    @Inject
    public Notifications(Instance<Notifier> channels, Clock clock, EngineConfig config) {
        this(channels.stream().toList(), clock, config.notifications().attempts(), config.notifications().backoff());
    }

    Notifications(List<Notifier> channels, Clock clock, int attempts, Duration backoff) {
        this.channels = List.copyOf(channels);
        this.clock = clock;
        this.attempts = attempts;
        this.backoff = backoff;
    }

    /** A run's state moved from {@code before} (null at start) to {@code after}, committed: notify if asked to. */
    public void changed(UUID runId, RunState before, RunState after) {
        RunStatus status = after.status();
        if (before != null && before.status() == status || !after.notifyOn().contains(status.name())) {
            return;
        }
        RunNotice notice = new RunNotice(runId, UUID.fromString(after.flowId()), after.flowVersion(), after.userId(), after.label(), status.name(),
                status == RunStatus.FAILED ? after.error().orElse(null) : null, clock.instant(), after.notifyEmail());
        List<Notifier> carriers = channels.stream().filter(channel -> channel.carries(notice)).toList();
        LOG.debugf("run %s is %s: notice by %s (of %d channels)", runId, status, carriers.stream().map(Notifier::channel).toList(),
                channels.size());
        carriers.forEach(channel -> deliver(channel, notice));
    }

    private void deliver(Notifier channel, RunNotice notice) {
        Uni.createFrom().deferred(() -> channel.send(notice))
                .onFailure().retry().withBackOff(backoff, backoff.multipliedBy(30)).atMost(Math.max(0, attempts - 1))
                .subscribe().with(
                        sent -> LOG.debugf("%s notice of run %s (%s) sent", channel.channel(), notice.runId(), notice.status()),
                        failure -> LOG.warnf("%s notice of run %s (%s) not delivered after %d attempts: %s",
                                channel.channel(), notice.runId(), notice.status(), attempts, failure.getMessage()));
    }
}
