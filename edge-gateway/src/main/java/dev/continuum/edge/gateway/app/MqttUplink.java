package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import java.util.concurrent.CompletableFuture;

/** {@link Uplink} on the gateway's MQTT link; the device's topic names are made once, not per message. */
final class MqttUplink implements Uplink, FileOutbox.Publisher {

    private final MqttLink link;
    private final String results;
    private final String register;
    private final String status;
    private final String progress;
    private final String heartbeat;
    private final String files;

    MqttUplink(MqttLink link, Topics topics, String deviceId) {
        this.link = link;
        this.results = topics.results(deviceId);
        this.register = topics.register(deviceId);
        this.status = topics.status(deviceId);
        this.progress = topics.progress(deviceId);
        this.heartbeat = topics.heartbeat(deviceId);
        this.files = topics.files(deviceId);
    }

    @Override
    public boolean connected() {
        return link.connected();
    }

    @Override
    public CompletableFuture<Void> result(ResultMessage result) {
        return link.publish(results, Wire.encode(result), false);
    }

    @Override
    public CompletableFuture<Void> fileEvent(FileEvent event) {
        return link.publish(files, Wire.encode(event), false);
    }

    @Override
    public void registration(Registration registration) {
        link.publish(register, Wire.encode(registration), false);
    }

    @Override
    public void status(DeviceStatus value) {
        link.publish(status, Wire.encode(value), true);
    }

    @Override
    public void progress(ProgressMessage value) {
        link.publishAtMostOnce(progress, Wire.encode(value));
    }

    @Override
    public void heartbeat(Heartbeat value) {
        link.publishAtMostOnce(heartbeat, Wire.encode(value));
    }

    /** Clean stop: a retained "offline" first, then DISCONNECT, so the broker does not send the will. */
    CompletableFuture<Void> stop(DeviceStatus offline) {
        return link.stop(status, Wire.encode(offline));
    }
}
