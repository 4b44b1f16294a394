package dev.continuum.provider.training.demo;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writes the few ONNX messages a small feed-forward classifier needs (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto) with protobuf's own wire-format writer; field numbers
 * are onnx.proto's (ONNX IR version 8, opset 13). ADR 0017 says why not generated classes.
 */
final class OnnxWriter {
    private static final int FLOAT = 1;

    private OnnxWriter() {
    }

    /** A model: input [N, in] → Gemm → Relu → Gemm → Softmax → output [N, classes]. */
    static byte[] mlp(String input, String output, float[][] w1, float[] b1, float[][] w2, float[] b2) {
        int in = w1.length;
        int classes = b2.length;
        Msg graph = new Msg()
                .msg(1, node("Gemm", "fc1", new String[] {input, "w1", "b1"}, "h"))
                .msg(1, node("Relu", "relu", new String[] {"h"}, "r"))
                .msg(1, node("Gemm", "fc2", new String[] {"r", "w2", "b2"}, "logits"))
                .msg(1, node("Softmax", "softmax", new String[] {"logits"}, output))
                .str(2, "continuum-demo-classifier")
                .msg(5, tensor("w1", flat(w1), w1.length, w1[0].length))
                .msg(5, tensor("b1", b1, b1.length))
                .msg(5, tensor("w2", flat(w2), w2.length, w2[0].length))
                .msg(5, tensor("b2", b2, b2.length))
                .msg(11, valueInfo(input, in))
                .msg(12, valueInfo(output, classes));
        return new Msg()
                .i64(1, 8)
                .str(2, "continuum-demo-trainer")
                .str(3, "0.1")
                .msg(7, graph)
                .msg(8, new Msg().str(1, "").i64(2, 13))
                .bytes();
    }

    private static Msg node(String op, String name, String[] inputs, String output) {
        Msg n = new Msg();
        for (String i : inputs) {
            n.str(1, i);
        }
        return n.str(2, output).str(3, name).str(4, op);
    }

    private static Msg tensor(String name, float[] values, long... dims) {
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            raw.putFloat(v);
        }
        Msg t = new Msg();
        for (long d : dims) {
            t.i64(1, d);
        }
        return t.i64(2, FLOAT).str(8, name).raw(9, raw.array());
    }

    /** A float tensor of shape [N, width] with N free (the batch). */
    private static Msg valueInfo(String name, int width) {
        Msg shape = new Msg().msg(1, new Msg().str(2, "N")).msg(1, new Msg().i64(1, width));
        Msg tensorType = new Msg().i64(1, FLOAT).msg(2, shape);
        return new Msg().str(1, name).msg(2, new Msg().msg(1, tensorType));
    }

    private static float[] flat(float[][] m) {
        float[] out = new float[m.length * m[0].length];
        for (int i = 0; i < m.length; i++) {
            System.arraycopy(m[i], 0, out, i * m[0].length, m[0].length);
        }
        return out;
    }

    /** One message being written; nested messages are written whole, then embedded length-prefixed. */
    private static final class Msg {
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final CodedOutputStream out = CodedOutputStream.newInstance(buf);

        Msg str(int field, String s) {
            return io(() -> out.writeString(field, s));
        }

        Msg i64(int field, long v) {
            return io(() -> out.writeInt64(field, v));
        }

        Msg raw(int field, byte[] b) {
            return io(() -> out.writeBytes(field, ByteString.copyFrom(b)));
        }

        Msg msg(int field, Msg m) {
            return raw(field, m.bytes());
        }

        byte[] bytes() {
            io(out::flush);
            return buf.toByteArray();
        }

        private Msg io(IoAction a) {
            try {
                a.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }
}
