package dev.continuum.edge.gateway.inference;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.continuum.edge.protocol.Tensor;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One loaded ONNX model with a single float input and a float first output. Runs on the CUDA
 * execution provider when asked and it works, on the CPU otherwise ({@link #load}). {@link #run} is thread-safe
 * (ONNX Runtime sessions allow concurrent runs).
 */
public final class OnnxModel implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(OnnxModel.class.getName());
    /** Each reason for running on the CPU is logged once per process, not once per model loaded. */
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final long[] inputShape;
    private final String executionProvider;
    private final String cpuFallbackReason;

    private OnnxModel(OrtEnvironment env, OrtSession session, String executionProvider, String cpuFallbackReason)
            throws OrtException {
        this.env = env;
        this.session = session;
        this.executionProvider = executionProvider;
        this.cpuFallbackReason = cpuFallbackReason;
        Map.Entry<String, NodeInfo> input = session.getInputInfo().entrySet().iterator().next();
        this.inputName = input.getKey();
        this.inputShape = ((TensorInfo) input.getValue().getInfo()).getShape();
    }

    /**
     * Loads {@code file}. With {@code preferGpu} it asks for the CUDA execution provider on device 0; when that fails
     * (no CUDA provider in this build — the default {@code onnxruntime} jar; CUDA or cuDNN libraries missing; no GPU)
     * the model runs on the CPU and {@link #cpuFallbackReason()} says why, logged once per reason.
     */
    public static OnnxModel load(Path file, boolean preferGpu) {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        String fallback = null;
        try {
            if (preferGpu) {
                try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
                    opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                    opts.addCUDA(0);
                    return new OnnxModel(env, env.createSession(file.toString(), opts), "CUDA", null);
                } catch (OrtException | RuntimeException | LinkageError e) {
                    fallback = cudaProblem(e);
                    logOnce(fallback);
                }
            }
            try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
                opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                return new OnnxModel(env, env.createSession(file.toString(), opts), "CPU", fallback);
            }
        } catch (OrtException e) {
            throw new ModelException("cannot load ONNX model " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    /** Why CUDA could not be used, with what to do about it. */
    static String cudaProblem(Throwable e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        if (!cudaInThisBuild()) {
            return "CUDA execution provider not in this build (the onnxruntime jar is CPU-only; build with -Pgpu for "
                    + "onnxruntime_gpu): " + message;
        }
        return "CUDA execution provider failed (" + message + "; it needs an NVIDIA GPU, its driver, CUDA 12 and "
                + "cuDNN 9 on the library path — ONNX Runtime's own log line names a missing library)";
    }

    private static void logOnce(String reason) {
        if (LOGGED.add(reason)) {
            LOG.log(cudaInThisBuild() ? Level.WARNING : Level.INFO, "inference on the CPU: " + reason);
        }
    }

    /** True when the ONNX Runtime on the class path has a CUDA execution provider (onnxruntime_gpu). */
    public static boolean cudaInThisBuild() {
        return OrtEnvironment.getAvailableProviders().contains(OrtProvider.CUDA);
    }

    /** Why this model runs on the CPU although the GPU was preferred; null when it runs on CUDA or the CPU was asked for. */
    public String cpuFallbackReason() {
        return cpuFallbackReason;
    }

    public String executionProvider() {
        return executionProvider;
    }

    /** The declared input shape; -1 marks a free dimension (usually the batch). */
    public long[] inputShape() {
        return inputShape.clone();
    }

    /** True when several inputs can be stacked along the first dimension and run at once. */
    public boolean batchable() {
        return inputShape.length > 0 && inputShape[0] < 0;
    }

    public Tensor run(long[] shape, float[] values) {
        checkShape(shape);
        try (OnnxTensor input = OnnxTensor.createTensor(env, FloatBuffer.wrap(values), shape);
             OrtSession.Result result = session.run(Map.of(inputName, input))) {
            OnnxValue first = result.get(0);
            if (!(first instanceof OnnxTensor out)) {
                throw new ModelException("model output is not a tensor", null);
            }
            FloatBuffer buf = out.getFloatBuffer();
            if (buf == null) {
                throw new ModelException("model output is not float32", null);
            }
            float[] data = new float[buf.remaining()];
            buf.get(data);
            return Tensor.of(out.getInfo().getShape(), data);
        } catch (OrtException e) {
            throw new ModelException("inference failed: " + e.getMessage(), e);
        }
    }

    private void checkShape(long[] shape) {
        boolean fits = shape.length == inputShape.length;
        for (int i = 0; fits && i < shape.length; i++) {
            fits = inputShape[i] < 0 || inputShape[i] == shape[i];
        }
        if (!fits) {
            throw new ModelException("input shape " + Arrays.toString(shape) + " does not fit the model's "
                    + Arrays.toString(inputShape), null);
        }
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            // closing a session only frees native memory; nothing to recover
        }
    }

    public static final class ModelException extends RuntimeException {
        public ModelException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
