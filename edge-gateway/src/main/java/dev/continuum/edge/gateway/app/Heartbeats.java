package dev.continuum.edge.gateway.app;

import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.gateway.resources.ResourceProbe;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the fleet view knows of the device: its resources, execution provider, deployed models and how
 * much work it holds, signed with its credential and numbered so a late one cannot overwrite a newer one.
 * Sent only by a registered device on a live link.
 */
final class Heartbeats {

    private static final Logger LOG = Logger.getLogger(Heartbeats.class.getName());

    private final String deviceId;
    private final ResourceProbe probe;
    private final ModelRepository models;
    private final TaskSpool spool;
    private final IntSupplier running;
    private final Supplier<String> credential;
    private final Uplink uplink;
    private final Clock clock;
    private final AtomicLong sequence = new AtomicLong();
    private final String role;

    Heartbeats(String deviceId, ResourceProbe probe, ModelRepository models, TaskSpool spool, IntSupplier running,
               Supplier<String> credential, Uplink uplink, Clock clock, String role) {
        this.deviceId = deviceId;
        this.role = role;
        this.probe = probe;
        this.models = models;
        this.spool = spool;
        this.running = running;
        this.credential = credential;
        this.uplink = uplink;
        this.clock = clock;
    }

    void beat() {
        String cred = credential.get();
        if (cred == null || !uplink.connected()) {
            return;
        }
        try {
            ResourceProbe.Snapshot s = probe.sample();
            uplink.heartbeat(new Heartbeat(deviceId, cred, clock.instant().toString(), sequence.incrementAndGet(),
                    s.gpus(), s.cpuCores(), s.cpuLoad(), s.memoryTotalMb(), s.memoryFreeMb(), s.diskFreeMb(),
                    models.executionProvider(), models.inventory(), spool.queued(), running.getAsInt(),
                    Heartbeat.WIRE_FORMS, role));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "heartbeat failed", e);
        }
    }
}
