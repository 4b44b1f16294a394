package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.ResultMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A link to the cloud in memory: keeps what the gateway's parts send; the test says whether the link is up
 * and when the broker acknowledges a result (PUBACK) or the connection drops before it does.
 */
final class RecordingUplink implements Uplink {

    final List<ResultMessage> results = new CopyOnWriteArrayList<>();
    final List<ProgressMessage> progress = new CopyOnWriteArrayList<>();
    final List<Registration> registrations = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<Void>> awaitingPuback = new CopyOnWriteArrayList<>();
    private volatile boolean up = true;
    private volatile boolean pubackAtOnce;

    /** The broker acknowledges every result as it arrives. */
    RecordingUplink acknowledgingAtOnce() {
        pubackAtOnce = true;
        return this;
    }

    void up() {
        up = true;
    }

    /** The connection drops: results not yet acknowledged fail, as {@link MqttLink#publish} fails them. */
    void down() {
        up = false;
        for (CompletableFuture<Void> f : awaitingPuback) {
            f.completeExceptionally(new MqttLink.LinkDownException("connection lost before PUBACK"));
        }
        awaitingPuback.clear();
    }

    /** The broker acknowledges every result published so far. */
    void puback() {
        for (CompletableFuture<Void> f : awaitingPuback) {
            f.complete(null);
        }
        awaitingPuback.clear();
    }

    List<String> resultIds() {
        return results.stream().map(ResultMessage::taskId).toList();
    }

    @Override
    public boolean connected() {
        return up;
    }

    @Override
    public CompletableFuture<Void> result(ResultMessage result) {
        if (!up) {
            return CompletableFuture.failedFuture(new MqttLink.LinkDownException("not connected to the broker"));
        }
        results.add(result);
        if (pubackAtOnce) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> acked = new CompletableFuture<>();
        awaitingPuback.add(acked);
        return acked;
    }

    @Override
    public void registration(Registration registration) {
        registrations.add(registration);
    }

    @Override
    public void status(DeviceStatus status) {}

    @Override
    public void progress(ProgressMessage value) {
        progress.add(value);
    }

    @Override
    public void heartbeat(Heartbeat heartbeat) {}
}
