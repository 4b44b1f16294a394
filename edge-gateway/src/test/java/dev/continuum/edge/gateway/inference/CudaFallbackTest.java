package dev.continuum.edge.gateway.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.testing.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The CUDA path on a machine without a GPU: the model runs on the CPU and the gateway says why. In the default build
 * the onnxruntime jar has no CUDA provider and asking for it fails with ONNX Runtime's own error; in a {@code -Pgpu}
 * build (onnxruntime_gpu) the provider's libraries or the GPU are missing instead.
 */
class CudaFallbackTest {

    @Test
    void shouldRunOnTheCpuAndSayWhyOnceWhenCudaIsAskedForWithoutAGpu() {
        Assumptions.assumeFalse(Files.isExecutable(Path.of("/usr/bin/nvidia-smi")), "this machine has an NVIDIA GPU");
        Path file = TestModels.ocrClassifier();
        List<String> logged = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger(OnnxModel.class.getName());
        Handler handler = new Handler() {
            @Override public void publish(LogRecord r) { logged.add(r.getMessage()); }
            @Override public void flush() {}
            @Override public void close() {}
        };
        log.addHandler(handler);
        try (OnnxModel first = OnnxModel.load(file, true); OnnxModel second = OnnxModel.load(file, true)) {

            assertThat(first.executionProvider()).isEqualTo("CPU");
            if (OnnxModel.cudaInThisBuild()) {
                assertThat(first.cpuFallbackReason()).startsWith("CUDA execution provider failed (");
            } else {
                assertThat(first.cpuFallbackReason()).isEqualTo("CUDA execution provider not in this build (the "
                        + "onnxruntime jar is CPU-only; build with -Pgpu for onnxruntime_gpu): Error code - ORT_EP_FAIL - "
                        + "message: Failed to find CUDA shared provider");
            }
            assertThat(second.cpuFallbackReason()).isEqualTo(first.cpuFallbackReason());
            assertThat(logged).filteredOn(m -> m.equals("inference on the CPU: " + first.cpuFallbackReason())).hasSizeLessThanOrEqualTo(1);
            assertThat(first.run(TestModels.CLS_SHAPE, TestModels.image(1, 1)).shape()).containsExactly(1, 2);
        } finally {
            log.removeHandler(handler);
        }
    }

    @Test
    void shouldGiveNoReasonWhenTheCpuWasAskedFor() {
        try (OnnxModel model = OnnxModel.load(TestModels.ocrClassifier(), false)) {

            assertThat(model.executionProvider()).isEqualTo("CPU");
            assertThat(model.cpuFallbackReason()).isNull();
        }
    }
}
