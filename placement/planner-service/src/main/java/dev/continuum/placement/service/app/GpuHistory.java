package dev.continuum.placement.service.app;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The recent GPU readings of each gateway, from its heartbeats: a bounded ring per device (the oldest sample drops
 * out), so the web UI can draw utilisation and memory over the last minutes without a time-series store. Kept in
 * memory only: after a restart the charts start again from the next heartbeats. Thread-safe.
 */
public final class GpuHistory {

    /** One accelerator at one moment, as the gateway's NVIDIA management interface reported it. */
    public record Gpu(int index, String model, int utilizationPercent, long memoryUsedMb, long memoryTotalMb) {}

    public record Sample(Instant at, List<Gpu> gpus) {
        public Sample {
            gpus = List.copyOf(gpus);
        }
    }

    private final int capacity;
    private final Map<String, Deque<Sample>> rings = new HashMap<>();

    public GpuHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds a reading; one at the same instant as the device's latest (a status change, not a heartbeat) is skipped. */
    public synchronized void record(String deviceId, Sample sample) {
        Deque<Sample> ring = rings.computeIfAbsent(deviceId, id -> new ArrayDeque<>(capacity));
        if (!ring.isEmpty() && !sample.at().isAfter(ring.peekLast().at())) {
            return;
        }
        if (ring.size() == capacity) {
            ring.removeFirst();
        }
        ring.addLast(sample);
    }

    /** Oldest first; empty for a device never heard from. */
    public synchronized List<Sample> samples(String deviceId) {
        Deque<Sample> ring = rings.get(deviceId);
        return ring == null ? List.of() : List.copyOf(ring);
    }
}
