package dev.continuum.edge.gateway.bench;

import ai.onnxruntime.OrtEnvironment;
import dev.continuum.edge.gateway.inference.OnnxModel;
import dev.continuum.edge.gateway.resources.GpuPoller;
import dev.continuum.edge.gateway.resources.NvidiaSmi;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.edge.protocol.GpuInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The CUDA path, checked (bench/scripts/gpu-check.sh, docs/edge.md "GPUs"): the demo model loaded with the GPU
 * preferred, then on the CPU, each run {@code bench.runs} times (batch 1, after {@code bench.warmup} runs); prints the
 * execution provider each really used (and why not CUDA), p50/p99 per inference, and the GPU readings the gateway's
 * heartbeat would carry before and after. Built with {@code -Pgpu} it tries onnxruntime_gpu's CUDA provider; in the
 * default build it shows the CPU fallback. Not a test: run by name; prints, never asserts a time.
 */
class GpuCheckProbe {

    @Test
    void checkTheCudaPath() {
        int runs = Integer.getInteger("bench.runs", 1000);
        int warmup = Integer.getInteger("bench.warmup", 100);
        Path model = TestModels.ocrClassifier();
        GpuPoller gpus = new GpuPoller(NvidiaSmi.onPath(), Duration.ofSeconds(5));
        print("ONNX Runtime " + OrtEnvironment.getEnvironment().getVersion() + ", providers in this build: "
                + OrtEnvironment.getAvailableProviders() + "; model " + model.getFileName()
                + ", input " + Arrays.toString(TestModels.CLS_SHAPE) + ", " + runs + " runs after " + warmup + " warm-up");
        readings("GPU readings before", gpus);
        run("GPU preferred", model, true, runs, warmup);
        readings("GPU readings after the GPU run", gpus);
        run("CPU asked for", model, false, runs, warmup);
    }

    private static void run(String label, Path file, boolean preferGpu, int runs, int warmup) {
        long loadStart = System.nanoTime();
        try (OnnxModel model = OnnxModel.load(file, preferGpu)) {
            double loadMs = (System.nanoTime() - loadStart) / 1e6;
            float[] image = TestModels.image(7, 1);
            for (int i = 0; i < warmup; i++) {
                model.run(TestModels.CLS_SHAPE, image);
            }
            long[] nanos = new long[runs];
            for (int i = 0; i < runs; i++) {
                long t = System.nanoTime();
                model.run(TestModels.CLS_SHAPE, image);
                nanos[i] = System.nanoTime() - t;
            }
            Arrays.sort(nanos);
            print(String.format(Locale.ROOT, "%s: provider %s, p50 %.3f ms, p99 %.3f ms per inference (session load %.0f ms)%s",
                    label, model.executionProvider(), percentile(nanos, 50), percentile(nanos, 99), loadMs,
                    model.cpuFallbackReason() == null ? "" : "; not CUDA because: " + model.cpuFallbackReason()));
        }
    }

    private static double percentile(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    private static void readings(String label, GpuPoller gpus) {
        NvidiaSmi.Reading r = gpus.poll();
        if (!r.ok()) {
            print(label + ": no GPU found: " + r.problem());
            return;
        }
        for (GpuInfo g : r.gpus()) {
            print(String.format(Locale.ROOT, "%s: GPU %d %s, utilisation %d %%, memory %d / %d MiB, temperature %s, power %s",
                    label, g.index(), g.model(), g.utilizationPercent(), g.memoryUsedMb(), g.memoryTotalMb(),
                    g.temperatureC() == null ? "n/a" : g.temperatureC() + " C", g.powerW() == null ? "n/a" : g.powerW() + " W"));
        }
    }

    private static void print(String line) {
        System.out.println("[gpu-check] " + line);
    }
}
