package dev.continuum.provider.training.demo;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * A two-layer perceptron (4 → 16 ReLU → 3 softmax) learning which of three clusters a point
 * belongs to, with full-batch gradient descent on a {@link Dataset} (by default 900 generated points,
 * fixed seed, so every run and every resume sees the same data). Small enough to learn in well under a
 * second of CPU.
 */
final class Classifier {
    static final int IN = 4;
    static final int HIDDEN = 16;
    static final int CLASSES = 3;
    private static final float RATE = 0.2f;
    /** The points the demo learns when it is given none: 900 of three clusters, fixed seed. */
    static final Dataset GENERATED = Dataset.generated(900, 42);

    final float[][] w1 = new float[IN][HIDDEN];
    final float[] b1 = new float[HIDDEN];
    final float[][] w2 = new float[HIDDEN][CLASSES];
    final float[] b2 = new float[CLASSES];

    static Classifier fresh() {
        Classifier c = new Classifier();
        Random r = new Random(7);
        for (float[] row : c.w1) {
            for (int j = 0; j < row.length; j++) {
                row[j] = (float) (r.nextGaussian() * Math.sqrt(2.0 / IN));
            }
        }
        for (float[] row : c.w2) {
            for (int j = 0; j < row.length; j++) {
                row[j] = (float) (r.nextGaussian() * Math.sqrt(2.0 / HIDDEN));
            }
        }
        return c;
    }

    /** One gradient step over all points; returns the mean cross-entropy before the step. */
    double step(Dataset data) {
        float[][] x = data.features();
        int[] y = data.labels();
        int samples = y.length;
        float[][] gw1 = new float[IN][HIDDEN];
        float[] gb1 = new float[HIDDEN];
        float[][] gw2 = new float[HIDDEN][CLASSES];
        float[] gb2 = new float[CLASSES];
        double loss = 0;
        for (int n = 0; n < samples; n++) {
            float[] h = hidden(x[n]);
            float[] p = softmax(h);
            loss -= Math.log(Math.max(p[y[n]], 1e-7));
            float[] dz = p.clone();
            dz[y[n]] -= 1;
            float[] dh = new float[HIDDEN];
            for (int j = 0; j < HIDDEN; j++) {
                for (int k = 0; k < CLASSES; k++) {
                    gw2[j][k] += h[j] * dz[k];
                    dh[j] += w2[j][k] * dz[k];
                }
                dh[j] = h[j] > 0 ? dh[j] : 0;
                gb1[j] += dh[j];
                for (int i = 0; i < IN; i++) {
                    gw1[i][j] += x[n][i] * dh[j];
                }
            }
            for (int k = 0; k < CLASSES; k++) {
                gb2[k] += dz[k];
            }
        }
        float scale = RATE / samples;
        for (int j = 0; j < HIDDEN; j++) {
            b1[j] -= scale * gb1[j];
            for (int i = 0; i < IN; i++) {
                w1[i][j] -= scale * gw1[i][j];
            }
            for (int k = 0; k < CLASSES; k++) {
                w2[j][k] -= scale * gw2[j][k];
            }
        }
        for (int k = 0; k < CLASSES; k++) {
            b2[k] -= scale * gb2[k];
        }
        return loss / samples;
    }

    double accuracy(Dataset data) {
        int right = 0;
        for (int n = 0; n < data.labels().length; n++) {
            float[] p = softmax(hidden(data.features()[n]));
            int best = 0;
            for (int k = 1; k < CLASSES; k++) {
                best = p[k] > p[best] ? k : best;
            }
            right += best == data.labels()[n] ? 1 : 0;
        }
        return (double) right / data.labels().length;
    }

    /** A sample point of class {@code c} (for checking the exported model). */
    static float[] sample(int index) {
        return GENERATED.features()[index].clone();
    }

    static int label(int index) {
        return GENERATED.labels()[index];
    }

    float[] predict(float[] x) {
        return softmax(hidden(x));
    }

    private float[] hidden(float[] x) {
        float[] h = new float[HIDDEN];
        for (int j = 0; j < HIDDEN; j++) {
            float s = b1[j];
            for (int i = 0; i < IN; i++) {
                s += x[i] * w1[i][j];
            }
            h[j] = Math.max(0, s);
        }
        return h;
    }

    private float[] softmax(float[] h) {
        float[] z = new float[CLASSES];
        float max = Float.NEGATIVE_INFINITY;
        for (int k = 0; k < CLASSES; k++) {
            z[k] = b2[k];
            for (int j = 0; j < HIDDEN; j++) {
                z[k] += h[j] * w2[j][k];
            }
            max = Math.max(max, z[k]);
        }
        float sum = 0;
        for (int k = 0; k < CLASSES; k++) {
            z[k] = (float) Math.exp(z[k] - max);
            sum += z[k];
        }
        for (int k = 0; k < CLASSES; k++) {
            z[k] /= sum;
        }
        return z;
    }

    byte[] onnx() {
        return OnnxWriter.mlp("features", "probabilities", w1, b1, w2, b2);
    }

    void write(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(0x43544431); // "CTD1": the format of this file, checked on read
            for (float[] row : w1) {
                writeAll(out, row);
            }
            writeAll(out, b1);
            for (float[] row : w2) {
                writeAll(out, row);
            }
            writeAll(out, b2);
        }
    }

    static Classifier read(Path file) throws IOException {
        Classifier c = new Classifier();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            if (in.readInt() != 0x43544431) {
                throw new IOException(file + " is not a demo trainer checkpoint");
            }
            for (float[] row : c.w1) {
                readAll(in, row);
            }
            readAll(in, c.b1);
            for (float[] row : c.w2) {
                readAll(in, row);
            }
            readAll(in, c.b2);
        }
        return c;
    }

    private static void writeAll(DataOutputStream out, float[] v) throws IOException {
        for (float f : v) {
            out.writeFloat(f);
        }
    }

    private static void readAll(DataInputStream in, float[] v) throws IOException {
        for (int i = 0; i < v.length; i++) {
            v[i] = in.readFloat();
        }
    }
}
