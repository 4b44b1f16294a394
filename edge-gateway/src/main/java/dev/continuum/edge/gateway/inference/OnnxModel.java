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

/**
 * One loaded ONNX model with a single float input and a float first output. Runs on the CUDA
 * execution provider when asked and available, on the CPU otherwise. {@link #run} is thread-safe
 * (ONNX Runtime sessions allow concurrent runs).
 */
public final class OnnxModel implements AutoCloseable {

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final long[] inputShape;
    private final String executionProvider;

    private OnnxModel(OrtEnvironment env, OrtSession session, String executionProvider) throws OrtException {
        this.env = env;
        this.session = session;
        this.executionProvider = executionProvider;
        Map.Entry<String, NodeInfo> input = session.getInputInfo().entrySet().iterator().next();
        this.inputName = input.getKey();
        this.inputShape = ((TensorInfo) input.getValue().getInfo()).getShape();
    }

    /** Loads {@code file}; with {@code preferGpu} tries CUDA device 0 and falls back to the CPU. */
    public static OnnxModel load(Path file, boolean preferGpu) {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try {
            if (preferGpu && cudaAvailable()) {
                try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
                    opts.addCUDA(0);
                    return new OnnxModel(env, env.createSession(file.toString(), opts), "CUDA");
                } catch (OrtException e) {
                    // a GPU without a working CUDA install: fall through to the CPU
                }
            }
            try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
                opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                return new OnnxModel(env, env.createSession(file.toString(), opts), "CPU");
            }
        } catch (OrtException e) {
            throw new ModelException("cannot load ONNX model " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    public static boolean cudaAvailable() {
        return OrtEnvironment.getAvailableProviders().contains(OrtProvider.CUDA);
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
