package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.Notifications;
import dev.continuum.engine.app.RunChanged;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.smallrye.mutiny.operators.multi.processors.SerializedProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The engine's own consumers of the run-event stream (channel {@code run-events}, RunEventStream), each a subscriber
 * of its own: the notifier (activity_notification_policy) and the web UI's live views (LiveResource, through
 * {@link #changes()}). Each returns at once; work that reads the database goes to the event loop.
 */
@ApplicationScoped
public class RunEventFeeds {

    private final Notifications notifications;
    private final EventLoop loop;
    /** Many live views listen; changes come from many threads, so the processor is serialized. */
    private final BroadcastProcessor<RunChanged> broadcast = BroadcastProcessor.create();
    private final SerializedProcessor<RunChanged, RunChanged> live = broadcast.serialized();

    public RunEventFeeds(Notifications notifications, EventLoop loop) {
        this.notifications = notifications;
        this.loop = loop;
    }

    @Incoming(RunEventStream.CHANNEL)
    void notifier(RunChanged change) {
        if (change.notifyOwner()) {
            loop.execute(() -> notifications.changed(change));
        }
    }

    @Incoming(RunEventStream.CHANNEL)
    void liveViews(RunChanged change) {
        live.onNext(change);
    }

    /** Committed run changes from now on, for as long as the subscriber listens (none are kept for latecomers). */
    public Multi<RunChanged> changes() {
        return broadcast;
    }
}
