package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.gateway.store.FileEventLog;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Delivers file events from the {@link FileEventLog} in order, QoS 1, a window of them in flight at once; an event
 * leaves the log only on the broker's PUBACK. While the link is down events wait on disk; after a reconnect (or a
 * restart) those not acknowledged are published again — once each for events made while offline, and possibly a
 * second time for one in flight when the link broke, which the cloud recognises by its event id.
 */
final class FileOutbox {

    /** The link's own limit on unacknowledged messages is higher; this keeps a burst from hogging it. */
    static final int MAX_IN_FLIGHT = 256;

    /** The gateway's MQTT link as far as file events go. */
    interface Publisher {
        boolean connected();

        /** Completes on the broker's PUBACK; fails when the link is down or drops first. */
        CompletableFuture<Void> fileEvent(FileEvent event);
    }

    private final FileEventLog log;
    private final Publisher publisher;
    private final Executor disk;
    private final Set<Long> inFlight = new HashSet<>();

    FileOutbox(FileEventLog log, Publisher publisher, Executor disk) {
        this.log = log;
        this.publisher = publisher;
        this.disk = disk;
    }

    /** Publishes what is waiting and not in flight, up to the window. */
    synchronized void flush() {
        if (!publisher.connected() || inFlight.size() >= MAX_IN_FLIGHT) {
            return;
        }
        for (FileEventLog.Pending p : log.pending(MAX_IN_FLIGHT + inFlight.size())) {
            if (inFlight.size() >= MAX_IN_FLIGHT) {
                break;
            }
            if (!inFlight.add(p.seq())) {
                continue;
            }
            publisher.fileEvent(p.event()).whenCompleteAsync((ok, failed) -> acknowledged(p.seq(), failed == null), disk);
        }
    }

    private void acknowledged(long seq, boolean delivered) {
        synchronized (this) {
            inFlight.remove(seq);
        }
        if (delivered) {
            log.delivered(seq);
            flush();
        }
    }

    int undelivered() {
        return log.undelivered();
    }
}
