package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Task messages received but not yet acknowledged to the broker ({@link GatewayConfig.Durability#BROKER}):
 * while a task's PUBACK is held, the broker's persistent session still owns it and redelivers it if
 * this process dies. Each is released when its result has reached the broker, or once the journal
 * record that accounts for it is on disk.
 */
final class HeldAcks {

    private record Held(MqttLink.Incoming message, long mark) {}

    private final Map<String, List<Held>> byTask = new LinkedHashMap<>();
    private int count;

    /** Holds {@code message} until {@link #release} or until {@code mark} is durable; returns how many are held. */
    synchronized int hold(String taskId, MqttLink.Incoming message, long mark) {
        byTask.computeIfAbsent(taskId, k -> new ArrayList<>(1)).add(new Held(message, mark));
        return ++count;
    }

    /** The task's result is at the broker: acknowledge every delivery of the task. */
    synchronized void release(String taskId) {
        List<Held> held = byTask.remove(taskId);
        if (held != null) {
            count -= held.size();
            held.forEach(h -> h.message().ack());
        }
    }

    /** Acknowledges every message whose record is now on disk. */
    synchronized void releaseDurable(LongPredicate durable) {
        for (Iterator<List<Held>> it = byTask.values().iterator(); it.hasNext(); ) {
            List<Held> held = it.next();
            held.removeIf(h -> {
                if (!durable.test(h.mark())) {
                    return false;
                }
                h.message().ack();
                count--;
                return true;
            });
            if (held.isEmpty()) {
                it.remove();
            }
        }
    }

    /** The connection these messages came on is gone; the broker redelivers them on the next one. */
    synchronized void forget() {
        byTask.clear();
        count = 0;
    }

    synchronized int size() {
        return count;
    }
}
