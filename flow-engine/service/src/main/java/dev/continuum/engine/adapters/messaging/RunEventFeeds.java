package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.FlowActions;
import dev.continuum.engine.app.Notifications;
import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.app.triggers.RunChains;
import dev.continuum.engine.domain.triggers.RunSources;
import org.jboss.logging.Logger;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.smallrye.mutiny.operators.multi.processors.SerializedProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Consumer;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The engine's own consumers of the run-event stream (channel {@code run-events}, RunEventStream): the notifier
 * (activity_notification_policy), the web UI's live views (LiveResource, through {@link #changes()}) and chaining
 * ({@code run} triggers). They share one subscription: the stream's dispatch of a message (its context, metadata and
 * hop to the subscriber's event loop) is paid per subscriber, and every committed turn of every run is a message.
 * Each consumer returns at once, and one that throws does not keep the change from the others; work that reads the
 * database goes to the event loop.
 */
@ApplicationScoped
public class RunEventFeeds {

    private final Notifications notifications;
    private final EventLoop loop;
    private final RunChains chains;
    private final FlowActions flowCalls;
    private static final Logger LOG = Logger.getLogger(RunEventFeeds.class);
    /** Many live views listen; changes come from many threads, so the processor is serialized. */
    private final BroadcastProcessor<RunChanged> broadcast = BroadcastProcessor.create();
    private final SerializedProcessor<RunChanged, RunChanged> live = broadcast.serialized();

    public RunEventFeeds(Notifications notifications, EventLoop loop, RunChains chains, FlowActions flowCalls) {
        this.chains = chains;
        this.flowCalls = flowCalls;
        this.notifications = notifications;
        this.loop = loop;
    }

    @Incoming(RunEventStream.CHANNEL)
    void changed(RunChanged change) {
        hand("the notifier", change, this::notifier);
        hand("the live views", change, this::liveViews);
        hand("chaining", change, this::chaining);
        hand("parent runs", change, this::parents);
    }

    private static void hand(String consumer, RunChanged change, Consumer<RunChanged> to) {
        try {
            to.accept(change);
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s could not take the change of run %s to %s", consumer, change.runId(), change.status());
        }
    }

    private void notifier(RunChanged change) {
        if (change.notifyOwner()) {
            loop.execute(() -> notifications.changed(change));
        }
    }

    private void liveViews(RunChanged change) {
        live.onNext(change);
    }

    /** Chaining: a run that entered a status may fire {@code run} triggers (RunChains; its catch-up covers what is lost). */
    private void chaining(RunChanged change) {
        if (change.statusChanged() && RunSources.STATUSES.contains(change.status())) {
            loop.execute(() -> chains.reached(change.runId(), change.flowId(), change.status()).subscribe().with(
                    outcomes -> { },
                    failure -> LOG.warnf("run %s is %s: run triggers not fired now (%s); the catch-up will", change.runId(),
                            change.status(), failure.getMessage())));
        }
    }

    /** A child run that finished tells its parent's waiting Action (FlowActions#finished; polling covers what is lost). */
    private void parents(RunChanged change) {
        if (change.statusChanged() && dev.continuum.flow.run.RunStatus.valueOf(change.status()).finished()) {
            loop.execute(() -> flowCalls.finished(change.runId()).subscribe().with(done -> { },
                    failure -> LOG.warnf("run %s finished: its parent learns it at its next poll (%s)", change.runId(),
                            failure.getMessage())));
        }
    }

    /** Committed run changes from now on, for as long as the subscriber listens (none are kept for latecomers). */
    public Multi<RunChanged> changes() {
        return broadcast;
    }
}
