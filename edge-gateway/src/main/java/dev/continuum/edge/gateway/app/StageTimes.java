package dev.continuum.edge.gateway.app;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where a task's time goes on the gateway, per stage, over the last {@value #WINDOW} tasks: the
 * profile behind docs/benchmarks.md ("Edge inference"). Cheap enough to stay on in production
 * (two {@code nanoTime} calls and an array store per stage).
 */
public final class StageTimes {

    /** In the order a task passes them. */
    public enum Stage {
        /** MQTT event loop to the intake thread. */
        HANDOFF,
        /** JSON (and base64) decoding of the task message. */
        DECODE,
        /** Journal append and its sync (the task is durable; PUBACK follows). */
        SPOOL,
        /** Decoded until the worker starts it (other tasks ahead, thread wake-up); overlaps SPOOL. */
        QUEUE,
        /** Resolving and checking the input tensor. */
        INPUT,
        /** The ONNX Runtime call. */
        ONNX,
        /** Encoding the result and making it durable. */
        RESULT,
        /** Signing, encoding and handing the result to the MQTT client. */
        PUBLISH,
        /**
         * Not a stage but their sum less the model: from the task's arrival on the MQTT event loop to its
         * result handed to the MQTT client, minus the ONNX run — what the gateway adds to an inference.
         */
        OVERHEAD
    }

    static final int WINDOW = 4096;

    private final long[][] samples = new long[Stage.values().length][WINDOW];
    private final int[] counts = new int[Stage.values().length];

    synchronized void record(Stage stage, long nanos) {
        int i = stage.ordinal();
        samples[i][counts[i] % WINDOW] = nanos;
        counts[i]++;
    }

    /** Forgets every sample (e.g. after a warm-up). */
    public synchronized void clear() {
        Arrays.fill(counts, 0);
    }

    /** Median milliseconds per stage over the window (stages with no sample are left out). */
    public synchronized Map<Stage, Double> medianMillis() {
        Map<Stage, Double> out = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) {
            int n = Math.min(counts[s.ordinal()], WINDOW);
            if (n > 0) {
                long[] sorted = Arrays.copyOf(samples[s.ordinal()], n);
                Arrays.sort(sorted);
                out.put(s, sorted[n / 2] / 1e6);
            }
        }
        return out;
    }
}
