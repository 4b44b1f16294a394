package dev.continuum.provider.transfer.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.Upload;
import dev.continuum.provider.transfer.engine.Sha256;
import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The device half of gateway storage: serves one directory on the device (a {@link LocalStorage},
 * so symlinks out of it are refused) to the transfer provider over the gateway's outbound MQTT
 * link. Every path is normalized and confined again here — the device does not trust the cloud's
 * checks — and a read-only root refuses every write. Requests run on a small pool (never on the
 * MQTT event loop). Uploads are the same partial files as a local destination's, so a transfer
 * interrupted by a gateway or provider restart resumes from the chunks the provider's journal holds.
 */
public final class GatewayStorageServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(GatewayStorageServer.class.getName());

    /** Where the server connects and what it serves. */
    public record Settings(String host, int port, String topicRoot, String deviceId, java.nio.file.Path root,
                           boolean readOnly, int threads) {}

    private final Settings settings;
    private final LocalStorage storage;
    private final MqttLink link;
    private final String statusTopic;
    private final ExecutorService pool;
    private final Map<String, Upload> uploads = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
    private final StorageSpans spans;

    public GatewayStorageServer(Settings settings) {
        this(settings, null);
    }

    /** Logs in with {@code login} (null: anonymous); on a broker Continuum starts, as its device id. Records no spans. */
    public GatewayStorageServer(Settings settings, MqttLink.Login login) {
        this(settings, login, OpenTelemetry.noop());
    }

    /**
     * As {@link #GatewayStorageServer(Settings, MqttLink.Login)}, recording a span of each traced request to
     * {@code telemetry}'s tracer (docs/operations.md "Traces").
     */
    public GatewayStorageServer(Settings settings, MqttLink.Login login, OpenTelemetry telemetry) {
        this(settings, login, telemetry, null);
    }

    /** As above, over MQTT with TLS as {@code tls} says (null: plain; docs/edge.md "Encrypted links"). */
    public GatewayStorageServer(Settings settings, MqttLink.Login login, OpenTelemetry telemetry, MqttLink.Tls tls) {
        this.settings = settings;
        this.spans = new StorageSpans(telemetry, settings.deviceId());
        this.storage = new LocalStorage(settings.root());
        this.pool = Executors.newFixedThreadPool(Math.max(1, settings.threads()), r -> {
            Thread t = new Thread(r, "gateway-storage");
            t.setDaemon(true);
            return t;
        });
        this.statusTopic = StorageWire.status(settings.topicRoot(), settings.deviceId());
        // presence: retained "online" at each connect, "offline" by the broker (last will) or by close()
        this.link = MqttLink.standalone(StorageWire.link(settings.host(), settings.port(),
                settings.deviceId() + ".storage", login).withTls(tls).withWill(new MqttLink.Will(statusTopic, presence("offline"))));
        link.onConnection(sessionPresent -> link.publish(statusTopic, presence("online"), true));
        link.subscribe(StorageWire.requests(settings.topicRoot(), settings.deviceId()), 1, m -> {
            m.ack(); // a lost request is sent again by the provider
            pool.execute(() -> serve(m.payload()));
        });
    }

    private byte[] presence(String state) {
        return ("{\"device_id\":\"" + settings.deviceId() + "\",\"state\":\"" + state + "\",\"read_only\":"
                + settings.readOnly() + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** Connects; returns once requests are being received. */
    public GatewayStorageServer start() {
        link.start();
        // subscribed, not just connected: a request sent from now on is served
        link.whenConnected().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
        LOG.info(() -> "gateway storage " + settings.deviceId() + " serving " + storage.root()
                + (settings.readOnly() ? " (read-only)" : ""));
        return this;
    }

    /** Requests answered since start (operators' view of link chattiness; tests of batching). */
    public long requestsServed() {
        return served.get();
    }

    private void serve(byte[] payload) {
        served.incrementAndGet();
        StorageWire.Frame request;
        try {
            request = StorageWire.decode(payload);
        } catch (IllegalArgumentException e) {
            LOG.warning("dropped a malformed storage request: " + e.getMessage());
            return;
        }
        String replyTo = request.text("reply_to");
        if (replyTo == null || !replyTo.startsWith(settings.topicRoot() + "/storage-replies/")) {
            LOG.warning("dropped a storage request without a valid reply_to");
            return;
        }
        ObjectNode reply = StorageWire.header();
        reply.set("id", request.header().path("id"));
        ByteBuffer body = null;
        Span span = spans.start(request);
        try {
            body = handle(request, reply);
            reply.put("ok", true);
        } catch (UnsafePathException e) {
            fail(reply, "UnsafePath", e.getMessage());
        } catch (ReadOnlyException | IllegalArgumentException e) {
            fail(reply, e instanceof ReadOnlyException ? "ReadOnly" : "BadRequest", e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "storage request failed", e);
            fail(reply, "IOError", e.getMessage() == null ? e.toString() : e.getMessage());
        }
        StorageSpans.end(span, reply, body);
        link.publish(replyTo, StorageWire.encode(reply, body), false).exceptionally(e -> {
            LOG.fine(() -> "reply lost (the provider retries): " + e.getMessage());
            return null;
        });
    }

    private static void fail(ObjectNode reply, String code, String message) {
        reply.put("ok", false).put("code", code).put("error", message);
    }

    private static final class ReadOnlyException extends RuntimeException {
        ReadOnlyException(String op) {
            super("the gateway storage is read-only; '" + op + "' is refused");
        }
    }

    private ByteBuffer handle(StorageWire.Frame request, ObjectNode reply) throws IOException {
        String op = request.text("op");
        if (op == null) {
            throw new IllegalArgumentException("op is required");
        }
        JsonNode h = request.header();
        if (op.equals("readmany")) {
            return readMany(h, reply);
        }
        EndpointPath path = PathNormalizer.normalize(h.path("path").asText(""));
        switch (op) {
            case "stat" -> storage.stat(path).ifPresent(e -> reply.set("entry", StorageWire.entry(e)));
            case "list" -> {
                ArrayNode entries = reply.putArray("entries");
                storage.list(path).forEach(e -> entries.add(StorageWire.entry(e)));
            }
            case "read" -> {
                ByteBuffer data = ByteBuffer.allocate(length(h));
                storage.read(path, h.path("offset").asLong(), data);
                return data.flip();
            }
            case "mkdirs", "delete", "open", "write", "hash", "readback", "commit", "abort" -> {
                if (settings.readOnly()) {
                    throw new ReadOnlyException(op);
                }
                return write(op, path, request, reply);
            }
            default -> throw new IllegalArgumentException("unknown op '" + op + "'");
        }
        return null;
    }

    private ByteBuffer write(String op, EndpointPath path, StorageWire.Frame request, ObjectNode reply) throws IOException {
        JsonNode h = request.header();
        String key = path.relative();
        switch (op) {
            case "mkdirs" -> storage.mkdirs(path);
            case "delete" -> reply.put("deleted", storage.delete(path, h.path("recursive").asBoolean(false)));
            case "open" -> {
                Upload previous = uploads.remove(key);
                if (previous != null) {
                    previous.close();
                }
                Upload up = storage.openUpload(path, h.path("size").asLong(),
                        Instant.ofEpochMilli(h.path("mtime").asLong()), h.path("token").asText(null));
                uploads.put(key, up);
                reply.put("token", up.resumeToken()).put("resumed", up.resumed());
            }
            case "write" -> upload(path, h).write(h.path("index").asInt(), h.path("offset").asLong(), request.body());
            // read back on the device and answer only the hash: the chunk does not cross the link again
            case "hash" -> reply.put("sha256", Sha256.hex(readBack(path, h)));
            case "readback" -> {
                return readBack(path, h);
            }
            case "commit" -> {
                Upload up = uploads.remove(key);
                Instant mtime = Instant.ofEpochMilli(h.path("mtime").asLong());
                if (up == null && alreadyCommitted(path, h.path("size").asLong())) {
                    break;   // a repeated commit whose first reply was lost
                }
                (up == null ? reopen(path, h) : up).commit(mtime, new TreeMap<>());
            }
            case "abort" -> {
                Upload up = uploads.remove(key);
                (up == null ? reopen(path, h) : up).abort();
            }
            default -> throw new IllegalArgumentException("unknown op '" + op + "'");
        }
        return null;
    }

    /** Whole small files in one reply (see SmallFileBatches): lengths in the header, contents one after another. */
    private ByteBuffer readMany(JsonNode h, ObjectNode reply) {
        ArrayNode lengths = reply.putArray("lengths");
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (JsonNode p : h.path("paths")) {
            try {
                EndpointPath file = PathNormalizer.normalize(p.asText());
                Optional<Entry> e = storage.stat(file);
                if (e.isEmpty() || !e.get().isFile() || e.get().size() > SMALL_FILE || lengths.size() >= 256) {
                    lengths.add(-1);
                    continue;
                }
                ByteBuffer data = ByteBuffer.allocate((int) e.get().size());
                storage.read(file, 0, data);
                body.write(data.array(), 0, data.position());
                lengths.add(data.position());
            } catch (IOException | RuntimeException failed) {
                lengths.add(-1);   // the provider reads this one alone and sees the error itself
            }
        }
        return ByteBuffer.wrap(body.toByteArray());
    }

    private static final int SMALL_FILE = 1024 * 1024;

    private static int length(JsonNode h) {
        int length = h.path("length").asInt(-1);
        if (length < 0 || length > 256 * 1024 * 1024) {
            throw new IllegalArgumentException("length must be 0 to 256 MiB");
        }
        return length;
    }

    private boolean alreadyCommitted(EndpointPath path, long size) throws IOException {
        Optional<Entry> e = storage.stat(path);
        return e.isPresent() && e.get().isFile() && e.get().size() == size
                && storage.stat(path.parent().child(LocalStorage.partName(path.name()))).isEmpty();
    }

    /** What the partial file holds at the request's {@code offset} and {@code length}. */
    private ByteBuffer readBack(EndpointPath path, JsonNode h) throws IOException {
        ByteBuffer back = ByteBuffer.allocate(length(h));
        upload(path, h).readBack(h.path("offset").asLong(), back);
        return back.flip();
    }

    /** The open upload of a file, reopened (resumed) after a gateway restart. */
    private Upload upload(EndpointPath path, JsonNode h) throws IOException {
        Upload up = uploads.get(path.relative());
        return up != null ? up : reopen(path, h);
    }

    private Upload reopen(EndpointPath path, JsonNode h) throws IOException {
        Upload up = storage.openUpload(path, h.path("size").asLong(), Instant.ofEpochMilli(h.path("mtime").asLong()),
                h.path("token").asText(null));
        Upload raced = uploads.putIfAbsent(path.relative(), up);
        if (raced != null) {
            up.close();
            return raced;
        }
        return up;
    }

    @Override
    public void close() {
        try {
            link.stop(statusTopic, presence("offline")).get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            // the broker is gone: its last will marks us offline anyway
        }
        link.close();
        pool.shutdownNow();
        uploads.values().forEach(u -> {
            try {
                u.close();
            } catch (IOException ignored) {
                // partial data stays for a resume
            }
        });
    }

    /** Drops the link without a clean DISCONNECT (tests of the last will and of resume). */
    void crash() {
        link.abort();
        pool.shutdownNow();
    }
}
