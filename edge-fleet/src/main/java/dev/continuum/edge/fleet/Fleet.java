package dev.continuum.edge.fleet;

import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The cloud's view of the gateways, built from the retained status topic (online / last will
 * offline) and heartbeats. A heartbeat counts only with a genuine, unrevoked credential of the
 * device that sent it; credentials are checked again whenever the view is read, so revoking a
 * device removes it from {@link #devices()} at once.
 */
public final class Fleet {

    /** One gateway as last seen. {@code heartbeat} is null until its first verified heartbeat. */
    public record Device(String deviceId, boolean online, Heartbeat heartbeat, Instant lastHeartbeat, Instant statusAt) {}

    private final MqttLink link;
    private final Topics topics;
    private final DeviceCredentials credentials;
    private final Clock clock;
    private final Map<String, Device> devices = new ConcurrentHashMap<>();
    private final List<Consumer<Device>> listeners = new CopyOnWriteArrayList<>();

    public Fleet(MqttLink link, Topics topics, DeviceCredentials credentials, Clock clock) {
        this.link = link;
        this.topics = topics;
        this.credentials = credentials;
        this.clock = clock;
    }

    public void attach() {
        link.subscribe(topics.allStatuses(), 1, this::onStatus);
        link.subscribe(topics.allHeartbeats(), 0, this::onHeartbeat);
    }

    /**
     * True while this view's own link to the broker is up. While it is down, statuses go unseen: a gateway shown
     * offline may be back already (a broker that stops sends every gateway's last will before it drops this link too).
     */
    public boolean connected() {
        return link.connected();
    }

    /** Called with the new view of a device whenever its status or heartbeat changes. */
    public void onChange(Consumer<Device> listener) {
        listeners.add(listener);
    }

    /** Every device whose credential is still valid (or that has only a status so far), by id. */
    public List<Device> devices() {
        return devices.values().stream()
                .filter(d -> d.heartbeat() == null || credentials.verifyFor(d.deviceId(), d.heartbeat().credential()))
                .sorted(Comparator.comparing(Device::deviceId))
                .toList();
    }

    /** True when the device's last verified heartbeat says it reads binary frames. */
    public boolean readsFrames(String deviceId) {
        return device(deviceId).map(d -> d.heartbeat() != null && d.heartbeat().readsFrames()).orElse(false);
    }

    public Optional<Device> device(String deviceId) {
        return devices().stream().filter(d -> d.deviceId().equals(deviceId)).findFirst();
    }

    /** Online, registered, and with a verified heartbeat: a device tasks may be sent to. */
    public List<Device> usable() {
        return devices().stream().filter(d -> d.online() && d.heartbeat() != null).toList();
    }

    private void onStatus(MqttLink.Incoming message) {
        message.ack();
        String id = topics.deviceIdOf(message.topic());
        DeviceStatus status;
        try {
            status = Wire.decode(message.payload(), DeviceStatus.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        Device updated = devices.compute(id, (k, old) -> old == null
                ? new Device(id, status.isOnline(), null, null, clock.instant())
                : new Device(id, status.isOnline(), old.heartbeat(), old.lastHeartbeat(), clock.instant()));
        listeners.forEach(l -> l.accept(updated));
    }

    private void onHeartbeat(MqttLink.Incoming message) {
        message.ack();
        String id = topics.deviceIdOf(message.topic());
        Heartbeat hb;
        try {
            hb = Wire.decode(message.payload(), Heartbeat.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        if (!id.equals(hb.deviceId()) || !credentials.verifyFor(id, hb.credential())) {
            return;
        }
        // a heartbeat proves the device is connected now, even if its retained "online" came first or got lost
        Device updated = devices.compute(id, (k, old) -> new Device(id, true, hb, clock.instant(),
                old == null ? clock.instant() : old.statusAt()));
        listeners.forEach(l -> l.accept(updated));
    }
}
