package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Wire;
import java.util.concurrent.atomic.AtomicInteger;

/** A task message as the broker delivers it, counting the acknowledgements the gateway sends back. */
final class DeliveredTask implements MqttLink.Incoming {

    private final byte[] payload;
    private final AtomicInteger acks = new AtomicInteger();

    DeliveredTask(byte[] payload) {
        this.payload = payload;
    }

    static DeliveredTask of(TaskMessage task) {
        return new DeliveredTask(Wire.encode(task));
    }

    boolean acknowledged() {
        return acks.get() > 0;
    }

    @Override public String topic() { return "continuum/devices/gw/tasks"; }
    @Override public byte[] payload() { return payload; }
    @Override public boolean duplicate() { return false; }
    @Override public void ack() { acks.incrementAndGet(); }
}
