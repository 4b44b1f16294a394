package dev.continuum.engine.adapters.messaging;

import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.adapters.runtime.RunMetrics;
import dev.continuum.engine.app.RunChanges;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.annotations.Broadcast;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

/**
 * Publishes every committed run change on the SmallRye channel {@code run-events}. In memory by default: the engine's
 * own consumers (RunEventFeeds: the notifier, the live views, chaining) subscribe to it in process. An operator sends
 * the same stream to a broker by configuration alone ({@code mp.messaging.outgoing.run-events.connector=smallrye-mqtt}
 * or {@code smallrye-amqp}, docs/operations.md#run-events); the in-process consumers keep taking it from here.
 *
 * <p>A run's changes are sent in the order they were committed (each run is driven by one instance at a time, and
 * this is called in the commit's continuation). Sending never blocks the run: when a consumer or the broker falls
 * {@value #BUFFER} changes behind, further ones are dropped and counted ({@code continuum_run_events_dropped_total});
 * consumers catch up from the runs themselves (docs/triggers.md#run-events).
 */
@ApplicationScoped
public class RunEventStream implements RunChanges {

    static final String CHANNEL = "run-events";
    static final int BUFFER = 16384;
    private static final Logger LOG = Logger.getLogger(RunEventStream.class);

    @Inject
    @Channel(CHANNEL)
    @Broadcast
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = BUFFER)
    Emitter<RunChanged> emitter;

    private final Counter dropped;
    private final RunMetrics metrics;

    public RunEventStream(MeterRegistry registry, RunMetrics metrics) {
        this.metrics = metrics;
        this.dropped = Counter.builder("continuum.run.events.dropped")
                .description("Committed run changes not published because the run-event stream was full").register(registry);
    }

    @Override
    public void committed(RunChanged change) {
        metrics.changed(change); // runs started and finished: every committed change passes here once
        try {
            emitter.send(Message.of(change));
        } catch (RuntimeException full) { // buffer full, or the stream is shutting down
            dropped.increment();
            LOG.debugf("run change %s %s not published: %s", change.runId(), change.status(), full.getMessage());
        }
    }
}
