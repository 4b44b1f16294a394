package dev.continuum.engine.app.triggers;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Takes one file event from a gateway in: the active file trigger it was watched for (its watch id is the trigger's
 * id, and the trigger must name this gateway) gets it, recorded once under the gateway's file id, at most one run
 * started. The Uni completes only when the outcome is committed; the MQTT adapter acknowledges the message then, so
 * a crash before that is a redelivery, which the dedup key turns into the same single run.
 */
@ApplicationScoped
public class FileIngest {

    private static final Logger LOG = Logger.getLogger(FileIngest.class);
    static final Duration RETRY_FIRST = Duration.ofMillis(200);
    static final Duration RETRY_MAX = Duration.ofSeconds(10);
    static final int RETRIES = 30;

    private final TriggerStore store;
    private final TriggerService triggers;
    private final Clock clock;

    public FileIngest(TriggerStore store, TriggerService triggers, Clock clock) {
        this.store = store;
        this.triggers = triggers;
        this.clock = clock;
    }

    /** {@code gateway}: the device the message came from (its topic, which the broker confines the device to). */
    public Uni<List<EventOutcome>> take(String gateway, FileEvent event) {
        TriggerEvent triggerEvent = new TriggerEvent(FileSources.dedupKey(gateway, event),
                FileSources.payload(gateway, event), clock.instant());
        return store.active(FileSources.TYPE)
                .onItem().transformToMulti(found -> Multi.createFrom().iterable(found))
                .select().where(t -> t.id().toString().equals(event.watchId()) && FileSources.gateway(t).equals(gateway))
                .onItem().transformToUniAndConcatenate(t -> Uni.createFrom().deferred(() -> triggers.fire(t, triggerEvent))
                        .onFailure().invoke(e -> LOG.debugf("trigger %s, event %s: %s (retrying)", t.id(),
                                triggerEvent.dedupKey(), e.getMessage()))
                        .onFailure().retry().withBackOff(RETRY_FIRST, RETRY_MAX).atMost(RETRIES))
                .collect().asList();
    }
}
