package dev.continuum.provider.transfer.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The gateway storage protocol (ADR 0006): request/reply over MQTT 3.1.1, QoS 1, one message each
 * way. A frame is a 4-byte big-endian header length, a JSON header, then raw bytes (a chunk being
 * written or read; empty otherwise) — chunks are never base64'd.
 *
 * <pre>
 * ROOT/devices/DEVICE/storage/requests      cloud → gateway  {"id","op","reply_to",...}
 * ROOT/storage-replies/CLIENT               gateway → cloud  {"id","ok":true,...} or {"id","ok":false,"code","error"}
 * ROOT/devices/DEVICE/storage/status        gateway (retained; last will "offline")  {"state":"online"|"offline"}
 * </pre>
 *
 * Ops: {@code stat list mkdirs delete read open write hash commit abort}; paths are endpoint-relative
 * ({@code a/b}) and are normalized and confined again on the device.
 */
public final class StorageWire {

    /** A decoded frame. */
    public record Frame(JsonNode header, ByteBuffer body) {
        public String text(String field) {
            return header.path(field).asText(null);
        }
    }

    private StorageWire() {}

    public static String requests(String root, String deviceId) {
        return root + "/devices/" + deviceId + "/storage/requests";
    }

    public static String status(String root, String deviceId) {
        return root + "/devices/" + deviceId + "/storage/status";
    }

    public static String replies(String root, String clientId) {
        return root + "/storage-replies/" + clientId;
    }

    public static ObjectNode header() {
        return ProviderJson.mapper().createObjectNode();
    }

    /** A directory entry as a {@code stat} or {@code list} reply carries it. */
    public static ObjectNode entry(Entry e) {
        ObjectNode n = header();
        n.put("name", e.name()).put("kind", e.kind().name()).put("size", e.size())
                .put("modified", e.modified().toEpochMilli());
        return n;
    }

    /** The entry {@link #entry(Entry)} wrote. */
    public static Entry entry(JsonNode e) {
        return new Entry(e.path("name").asText(), Entry.Kind.valueOf(e.path("kind").asText("OTHER")),
                e.path("size").asLong(), Instant.ofEpochMilli(e.path("modified").asLong()));
    }

    public static byte[] encode(JsonNode header, ByteBuffer body) {
        byte[] head;
        try {
            head = ProviderJson.mapper().writeValueAsBytes(header);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int bodyLength = body == null ? 0 : body.remaining();
        ByteBuffer out = ByteBuffer.allocate(4 + head.length + bodyLength);
        out.putInt(head.length).put(head);
        if (body != null) {
            out.put(body.duplicate());
        }
        return out.array();
    }

    public static Frame decode(byte[] message) {
        if (message.length < 4) {
            throw new IllegalArgumentException("frame shorter than its length prefix");
        }
        ByteBuffer in = ByteBuffer.wrap(message);
        int headLength = in.getInt();
        if (headLength < 2 || headLength > message.length - 4) {
            throw new IllegalArgumentException("frame header length " + headLength + " does not fit the message");
        }
        JsonNode header;
        try {
            header = ProviderJson.mapper().readTree(new String(message, 4, headLength, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("frame header is not JSON: " + e.getMessage());
        }
        if (!header.isObject()) {
            throw new IllegalArgumentException("frame header is not a JSON object");
        }
        return new Frame(header, ByteBuffer.wrap(message, 4 + headLength, message.length - 4 - headLength).slice());
    }
}
