package dev.continuum.engine.app.triggers;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.List;

/**
 * Takes one file event from a gateway in: the active file trigger it was watched for (its watch id is the trigger's
 * id, and the trigger must name this gateway) gets it, recorded once under the gateway's file id, at most one run
 * started. The Uni completes only when the outcome is committed; the MQTT adapter acknowledges the message then, so
 * a crash before that is a redelivery, which the dedup key turns into the same single run.
 */
@ApplicationScoped
public class FileIngest {

    private final MessageIngest ingest;
    private final Clock clock;

    public FileIngest(MessageIngest ingest, Clock clock) {
        this.ingest = ingest;
        this.clock = clock;
    }

    /** {@code gateway}: the device the message came from (its topic, which the broker confines the device to). */
    public Uni<List<EventOutcome>> take(String gateway, FileEvent event) {
        TriggerEvent triggerEvent = new TriggerEvent(FileSources.dedupKey(gateway, event),
                FileSources.payload(gateway, event), clock.instant());
        return ingest.deliver(FileSources.TYPE,
                t -> t.id().toString().equals(event.watchId()) && FileSources.gateway(t).equals(gateway), triggerEvent);
    }
}
