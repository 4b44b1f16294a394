package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encoding of every message on the edge link: JSON (snake_case fields, unknown fields ignored), or —
 * for a message whose tensor is {@linkplain Tensor#inBody() in body form} — a binary frame:
 * <pre>
 *   int32 big-endian header length | JSON header (the message, its tensor as {"shape", "body":"f32le"}) | float32 little-endian values
 * </pre>
 * the {@link Frames} layout the transfer provider's gateway storage also uses for chunks. A frame
 * begins with a zero byte and JSON never does, so a receiver tells the two apart by the first byte and
 * reads both; which one a sender uses is negotiated (docs/edge.md).
 * Frames spare the 33 % of base64 and the text encoding and decoding of a 110 kB image at every hop.
 */
public final class Wire {

    /**
     * Numbers through Jackson's fast parser: a tensor document's {@code data} (an input file a gateway reads by
     * {@code input_ref}, a JSON task's inline input) is tens of thousands of decimals, and the JDK's parser made a
     * String per value — a 293 kB, 27,648-value document allocated 6.3 MB and took 2–3× the CPU (0.3 MB with the
     * fast parser, same values: both round correctly). At a gateway capped to a tenth of a CPU that was the larger
     * part of reading an input.
     */
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build())
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private Wire() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** JSON, or a binary frame when the message's tensor is in body form. */
    public static byte[] encode(Object message) {
        if (message instanceof CarriesTensor<?> carrier && carrier.tensor() != null && carrier.tensor().inBody()) {
            return frame(carrier);
        }
        try {
            return MAPPER.writeValueAsBytes(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when {@code payload} is a binary frame rather than JSON. */
    public static boolean isFrame(byte[] payload) {
        return Frames.isFrame(payload);
    }

    /** Decodes a message from JSON or a frame; a malformed one is a {@link MalformedMessageException}, never a crash. */
    public static <T> T decode(byte[] payload, Class<T> type) {
        try {
            return isFrame(payload) ? unframe(payload, type) : MAPPER.readValue(payload, type);
        } catch (IOException | RuntimeException e) {
            throw new MalformedMessageException(type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private static <T extends CarriesTensor<T>> byte[] frame(CarriesTensor<T> message) {
        Tensor tensor = message.tensor();
        float[] values = tensor.values();
        byte[] header;
        try {
            header = MAPPER.writeValueAsBytes(message.withTensor(tensor.header()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer out = Frames.allocate(header, 4 * values.length);
        out.slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(values);
        return out.array();
    }

    private static <T> T unframe(byte[] payload, Class<T> type) throws IOException {
        Frames.Parts parts = Frames.split(payload);
        ByteBuffer header = parts.header();
        T message = MAPPER.readValue(header.array(), header.arrayOffset(), header.remaining(), type);
        int bodyLength = parts.body().remaining();
        if (!(message instanceof CarriesTensor<?> carrier) || carrier.tensor() == null || !carrier.tensor().inBody()) {
            if (bodyLength > 0) {
                throw new IllegalArgumentException("frame has a body but its header names no tensor in body form");
            }
            return message;
        }
        if (bodyLength % 4 != 0) {
            throw new IllegalArgumentException("frame body of " + bodyLength + " bytes is not whole float32 values");
        }
        float[] values = new float[bodyLength / 4];
        parts.body().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        Tensor tensor = Tensor.framed(carrier.tensor().shape(), values);
        tensor.values(); // the body must fill the shape
        return type.cast(carrier.withTensor(tensor));
    }

    public static final class MalformedMessageException extends RuntimeException {
        public MalformedMessageException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
