package dev.continuum.provider.transfer.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Frames;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.telemetry.TraceContext;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The gateway storage protocol (ADR 0006): request/reply over MQTT 3.1.1, QoS 1, one message each
 * way. A message is a {@link Frames frame} of the edge link: a 4-byte big-endian header length, a JSON
 * header, then raw bytes (a chunk being written or read; empty otherwise) — chunks are never base64'd.
 *
 * <pre>
 * ROOT/devices/DEVICE/storage/requests      cloud → gateway  {"id","op","reply_to",...}
 * ROOT/storage-replies/CLIENT               gateway → cloud  {"id","ok":true,...} or {"id","ok":false,"code","error"}
 * ROOT/devices/DEVICE/storage/status        gateway (retained; last will "offline")  {"state":"online"|"offline"}
 * </pre>
 *
 * Ops: {@code stat list mkdirs delete read open write hash commit abort}; paths are endpoint-relative
 * ({@code a/b}) and are normalized and confined again on the device. A request made inside a trace carries its W3C
 * {@code traceparent} (and {@code tracestate}) in the header — MQTT 3.1.1 has no user properties, so the trace context
 * travels as the edge link's tasks carry it — and the device's span of the request joins that trace.
 */
public final class StorageWire {

    /** A decoded frame. */
    public record Frame(JsonNode header, ByteBuffer body) {
        public String text(String field) {
            return header.path(field).asText(null);
        }
    }

    /**
     * The largest message either half sends or accepts: a chunk of at most 64 MiB plus its header. The
     * embedded broker accepts as much ({@code Brokers}).
     */
    public static final int MAX_FRAME = 64 * 1024 * 1024 + 64 * 1024;
    /** A PUBACK for a 64 MiB chunk may take this long on a slow edge link; the sender's own timeout decides before. */
    static final java.time.Duration ACK_TIMEOUT = java.time.Duration.ofMinutes(10);

    private StorageWire() {}

    /**
     * One half's link to the broker: clean session (a request nobody answered in time is sent again by
     * its sender, so nothing needs queueing by the broker), frames up to {@link #MAX_FRAME}, on a Vert.x
     * of its own; {@code login} null: anonymous.
     */
    static MqttLink.Options link(String host, int port, String clientId, MqttLink.Login login) {
        return MqttLink.Options.persistent(host, port, clientId).withCleanSession(true).withLogin(login)
                .withLargeMessages(MAX_FRAME, ACK_TIMEOUT);
    }

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

    /** Puts the trace context current on this thread into a request's header; nothing when untraced. */
    static void putTraceContext(ObjectNode header) {
        TraceContext.headers(Context.current()).forEach(header::put);
    }

    public static byte[] encode(JsonNode header, ByteBuffer body) {
        try {
            return Frames.join(ProviderJson.mapper().writeValueAsBytes(header), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Frame decode(byte[] message) {
        Frames.Parts parts = Frames.split(message);
        JsonNode header;
        try {
            ByteBuffer head = parts.header();
            header = ProviderJson.mapper().readTree(head.array(), head.arrayOffset(), head.remaining());
        } catch (IOException e) {
            throw new IllegalArgumentException("frame header is not JSON: " + e.getMessage());
        }
        if (!header.isObject()) {
            throw new IllegalArgumentException("frame header is not a JSON object");
        }
        return new Frame(header, parts.body());
    }
}
