package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;

/**
 * A float32 tensor on the wire: {@code shape} plus either {@code data} (a JSON array, readable) or
 * {@code b64} (little-endian float32 bytes, base64 — 4x smaller and much faster for images).
 */
public record Tensor(@JsonProperty("shape") long[] shape,
                     @JsonProperty("data") float[] data,
                     @JsonProperty("b64") String b64) {

    public static Tensor of(long[] shape, float[] values) {
        return new Tensor(shape.clone(), values, null);
    }

    public static Tensor compact(long[] shape, float[] values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        return new Tensor(shape.clone(), null, Base64.getEncoder().encodeToString(bytes.array()));
    }

    /** The values, decoding {@code b64} when that is how they came; checks they fill the shape. */
    @JsonIgnore
    public float[] values() {
        float[] out;
        if (data != null) {
            out = data;
        } else if (b64 != null) {
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(b64)).order(ByteOrder.LITTLE_ENDIAN);
            out = new float[bytes.remaining() / 4];
            bytes.asFloatBuffer().get(out);
        } else {
            throw new IllegalArgumentException("tensor has neither data nor b64");
        }
        if (shape == null || shape.length == 0) {
            throw new IllegalArgumentException("tensor has no shape");
        }
        long expected = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        if (Arrays.stream(shape).anyMatch(d -> d <= 0) || expected != out.length) {
            throw new IllegalArgumentException("tensor shape " + Arrays.toString(shape) + " needs "
                    + expected + " values, got " + out.length);
        }
        return out;
    }
}
