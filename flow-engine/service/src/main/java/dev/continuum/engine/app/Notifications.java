package dev.continuum.engine.app;

import dev.continuum.engine.config.EngineConfig;
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

/**
 * Tells a run's owner that it reached a status its activity_notification_policy names (Globus: INACTIVE, SUCCEEDED,
 * FAILED). A consumer of the run-event stream (adapters/messaging/RunEventFeeds): it hears of a change only after
 * the change is committed, off the run's path: a slow or failing channel never delays or
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
    private final RunStore runs;
    private final int attempts;
    private final Duration backoff;

    @Inject
    public Notifications(Instance<Notifier> channels, Clock clock, EngineConfig config, RunStore runs) {
        this(channels.stream().toList(), clock, config.notifications().attempts(), config.notifications().backoff(), runs);
    }

    Notifications(List<Notifier> channels, Clock clock, int attempts, Duration backoff, RunStore runs) {
        this.runs = runs;
        this.channels = List.copyOf(channels);
        this.clock = clock;
        this.attempts = attempts;
        this.backoff = backoff;
    }

    /**
     * A committed change from the run-event stream: notify the owner if the run's policy names its new status. The
     * notice's e-mail address is read from the run (the stream carries none); a run gone meanwhile gets no notice.
     */
    public void changed(RunChanged change) {
        if (!change.notifyOwner()) {
            return;
        }
        Uni.createFrom().deferred(() -> runs.find(change.runId())).subscribe().with(found -> found.ifPresent(run -> {
            RunNotice notice = new RunNotice(change.runId(), change.flowId(), change.flowVersion(), change.owner(), change.label(),
                    change.status(), change.error(), clock.instant(), run.state().notifyEmail());
            List<Notifier> carriers = channels.stream().filter(channel -> channel.carries(notice)).toList();
            LOG.debugf("run %s is %s: notice by %s (of %d channels)", change.runId(), change.status(),
                    carriers.stream().map(Notifier::channel).toList(), channels.size());
            carriers.forEach(channel -> deliver(channel, notice));
        }), failure -> LOG.warnf("no notice for run %s (%s): could not read it: %s", change.runId(), change.status(),
                failure.getMessage()));
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
