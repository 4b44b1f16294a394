package dev.continuum.edge.gateway.inference;

import dev.continuum.edge.protocol.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs several requests for one model as one ONNX Runtime call: inputs with the same per-sample
 * shape are stacked along the first (batch) dimension, the output is split back by the same
 * row counts. Models with a fixed batch dimension run one request at a time.
 */
public final class BatchInference {


    public sealed interface Outcome permits Output, Failure {}
    public record Output(Tensor tensor, int batchSize, double inferenceMs) implements Outcome {}
    public record Failure(String error) implements Outcome {}

    private BatchInference() {}

    /** True when {@code b} can join a batch whose first input is {@code a}. */
    public static boolean stackable(Tensor a, Tensor b) {
        long[] sa = a.shape();
        long[] sb = b.shape();
        return sa.length == sb.length && sa.length > 0
                && Arrays.equals(Arrays.copyOfRange(sa, 1, sa.length), Arrays.copyOfRange(sb, 1, sb.length));
    }

    /** Runs all inputs (which must be stackable) on {@code model}; one outcome per input, in order. */
    public static List<Outcome> run(OnnxModel model, List<Tensor> inputs) {
        if (inputs.size() == 1 || !model.batchable()) {
            List<Outcome> out = new ArrayList<>();
            for (Tensor t : inputs) {
                out.add(single(model, t));
            }
            return out;
        }
        float[][] parts = new float[inputs.size()][];
        long rows = 0;
        int total = 0;
        for (int i = 0; i < inputs.size(); i++) {
            parts[i] = inputs.get(i).values();
            rows += inputs.get(i).shape()[0];
            total += parts[i].length;
        }
        float[] stacked = new float[total];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, stacked, at, p.length);
            at += p.length;
        }
        long[] shape = inputs.get(0).shape().clone();
        shape[0] = rows;
        long start = System.nanoTime();
        Tensor out = model.run(shape, stacked);
        double ms = (System.nanoTime() - start) / 1e6;
        if (out.shape().length == 0 || out.shape()[0] != rows) {
            throw new OnnxModel.ModelException("model output " + Arrays.toString(out.shape())
                    + " is not batched along the first dimension", null);
        }
        float[] values = out.values();
        int perRow = (int) (values.length / rows);
        List<Outcome> results = new ArrayList<>();
        int from = 0;
        for (Tensor t : inputs) {
            long n = t.shape()[0];
            long[] s = out.shape().clone();
            s[0] = n;
            results.add(new Output(Tensor.of(s, Arrays.copyOfRange(values, from, from + (int) (n * perRow))),
                    inputs.size(), ms));
            from += (int) (n * perRow);
        }
        return results;
    }

    private static Outcome single(OnnxModel model, Tensor t) {
        try {
            long start = System.nanoTime();
            Tensor out = model.run(t.shape(), t.values());
            return new Output(out, 1, (System.nanoTime() - start) / 1e6);
        } catch (RuntimeException e) {
            return new Failure(e.getMessage());
        }
    }
}
