package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;

/**
 * A float32 tensor on the wire: {@code shape} plus its values in one of three forms — {@code data}
 * (a JSON array, readable), {@code b64} (little-endian float32 bytes, base64: 4x smaller than
 * {@code data}), or {@code "body": "f32le"}: the raw little-endian bytes follow the JSON header of
 * a binary frame ({@link Wire}), with no text encoding at all. In memory a frame's tensor keeps its
 * values in {@code data} and remembers {@code body}, so a message built from it is sent as a frame again.
 */
public record Tensor(@JsonProperty("shape") long[] shape,
                     @JsonProperty("data") float[] data,
                     @JsonProperty("b64") String b64,
                     @JsonProperty("body") String body) {

    /** The one body encoding: float32, little-endian, row-major. */
    public static final String F32LE = "f32le";

    public static Tensor of(long[] shape, float[] values) {
        return new Tensor(shape.clone(), values, null, null);
    }

    public static Tensor compact(long[] shape, float[] values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        return new Tensor(shape.clone(), null, Base64.getEncoder().encodeToString(bytes.array()), null);
    }

    /** The same values, to travel as the raw body of a binary frame. */
    public static Tensor framed(long[] shape, float[] values) {
        return new Tensor(shape.clone(), values, null, F32LE);
    }

    /** True when this tensor travels (or arrived) as a frame body. */
    @JsonIgnore
    public boolean inBody() {
        return F32LE.equals(body);
    }

    /** This tensor in the form a frame's JSON header carries: shape and {@code body}, no values. */
    Tensor header() {
        return new Tensor(shape, null, null, F32LE);
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
        } else if (inBody()) {
            throw new IllegalArgumentException("tensor says its values are the frame body, but the message is not a binary frame");
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
