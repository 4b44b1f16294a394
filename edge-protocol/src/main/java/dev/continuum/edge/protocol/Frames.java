package dev.continuum.edge.protocol;

import java.nio.ByteBuffer;

/**
 * The one binary frame layout of the edge link, used by inference tasks and results ({@link Wire}) and by
 * the transfer provider's gateway storage ({@code StorageWire}):
 * <pre>
 *   int32 big-endian header length | JSON header | raw body
 * </pre>
 * Headers are under 16 MiB, so a frame begins with a zero byte and JSON never does: a receiver tells the
 * two apart by the first byte. Bodies (tensors, file chunks) are never base64'd.
 */
public final class Frames {

    /** Largest JSON header accepted: keeps the first byte of a frame zero. */
    public static final int MAX_HEADER = 1 << 24;

    /** A frame taken apart: views of the message (no copies). */
    public record Parts(ByteBuffer header, ByteBuffer body) {}

    private Frames() {}

    /** True when {@code payload} is a frame rather than JSON. */
    public static boolean isFrame(byte[] payload) {
        return payload.length >= 4 && payload[0] == 0;
    }

    /** {@code header} followed by {@code body} (null: none) as one message. */
    public static byte[] join(byte[] header, ByteBuffer body) {
        ByteBuffer out = allocate(header, body == null ? 0 : body.remaining());
        if (body != null) {
            out.put(body.duplicate());
        }
        return out.array();
    }

    /**
     * A frame of {@code header} and room for {@code bodyLength} bytes, positioned at the body for the caller
     * to fill (a tensor is written straight in, without an intermediate buffer). {@code array()} is the message.
     */
    public static ByteBuffer allocate(byte[] header, int bodyLength) {
        if (header.length > MAX_HEADER) {
            throw new IllegalArgumentException("frame header of " + header.length + " bytes is over " + MAX_HEADER);
        }
        ByteBuffer out = ByteBuffer.allocate(4 + header.length + bodyLength);
        out.putInt(header.length).put(header);
        return out;
    }

    /** The header and body of a frame; {@link IllegalArgumentException} when its length prefix does not fit. */
    public static Parts split(byte[] message) {
        if (message.length < 4) {
            throw new IllegalArgumentException("frame shorter than its length prefix");
        }
        int headerLength = ByteBuffer.wrap(message).getInt();
        if (headerLength < 2 || headerLength > MAX_HEADER || headerLength > message.length - 4) {
            throw new IllegalArgumentException("frame header length " + headerLength + " does not fit the message");
        }
        return new Parts(ByteBuffer.wrap(message, 4, headerLength).slice(),
                ByteBuffer.wrap(message, 4 + headerLength, message.length - 4 - headerLength).slice());
    }
}
