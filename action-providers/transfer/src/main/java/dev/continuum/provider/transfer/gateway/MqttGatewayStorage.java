package dev.continuum.provider.transfer.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.provider.transfer.endpoint.Entry;
import dev.continuum.provider.transfer.endpoint.GatewayStorage;
import dev.continuum.provider.transfer.endpoint.Upload;
import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.UnsafePathException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The provider half of gateway storage: each {@link dev.continuum.provider.transfer.endpoint.Storage}
 * call becomes one request to the device over the broker, answered by its
 * {@link GatewayStorageServer}. The provider never dials the device. Every op is idempotent
 * (positional writes, commit of an already committed file succeeds), so a request whose reply
 * does not come within the timeout is simply sent again, up to {@code attempts} times; a gateway
 * whose retained status says offline fails at once with an {@link IOException} (the transfer then
 * fails and, when retried, resumes from its journal).
 */
public final class MqttGatewayStorage implements GatewayStorage {

    /** How to reach one gateway's storage. */
    public record Settings(String host, int port, String topicRoot, String deviceId, Duration timeout, int attempts) {
        public Settings {
            if (!deviceId.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("device id must be 1-64 of [A-Za-z0-9._-], not " + deviceId);
            }
        }
    }

    private final Settings settings;
    private final String clientId = "transfer-" + UUID.randomUUID().toString().substring(0, 12);
    private final String replyTopic;
    private final MqttLink link;
    private final Map<Long, CompletableFuture<StorageWire.Frame>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile String state = "unknown";
    private final SmallFileBatches batches = new SmallFileBatches(this::readMany);

    public MqttGatewayStorage(Settings settings) {
        this(settings, null);
    }

    /** Logs in with {@code login} (null: anonymous); on a broker Continuum starts, as the operator. */
    public MqttGatewayStorage(Settings settings, MqttLink.Login login) {
        this(settings, login, null);
    }

    /** As above, over MQTT with TLS as {@code tls} says (null: plain; docs/edge.md "Encrypted links"). */
    public MqttGatewayStorage(Settings settings, MqttLink.Login login, MqttLink.Tls tls) {
        this.settings = settings;
        this.replyTopic = StorageWire.replies(settings.topicRoot(), clientId);
        this.link = MqttLink.standalone(StorageWire.link(settings.host(), settings.port(), clientId, login).withTls(tls));
        link.subscribe(replyTopic, 1, m -> {
            m.ack();
            try {
                StorageWire.Frame reply = StorageWire.decode(m.payload());
                CompletableFuture<StorageWire.Frame> waiting = pending.remove(reply.header().path("id").asLong());
                if (waiting != null) {
                    waiting.complete(reply);
                }
            } catch (IllegalArgumentException ignored) {
                // not a reply of ours; the request times out and is sent again
            }
        });
        link.subscribe(StorageWire.status(settings.topicRoot(), settings.deviceId()), 1, m -> {
            m.ack();
            try {
                state = dev.continuum.provider.api.ProviderJson.mapper().readTree(m.payload()).path("state").asText("unknown");
            } catch (IOException e) {
                state = "unknown";
            }
        });
        link.start();
    }

    @Override
    public String deviceId() {
        return settings.deviceId();
    }

    @Override
    public boolean online() {
        return "online".equals(state);
    }

    /** Sends one request and waits for its reply, sending it again after each timeout. */
    private StorageWire.Frame call(ObjectNode header, ByteBuffer body) throws IOException {
        try {
            link.whenConnected().get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IOException("cannot reach the MQTT broker " + settings.host() + ":" + settings.port()
                    + " for gateway " + settings.deviceId(), e);
        }
        header.put("reply_to", replyTopic);
        StorageWire.putTraceContext(header); // the device's span of the request joins the caller's trace
        IOException last = null;
        for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
            if ("offline".equals(state)) {
                throw new IOException("gateway " + settings.deviceId() + " is offline");
            }
            long id = ids.incrementAndGet();
            header.put("id", id);
            CompletableFuture<StorageWire.Frame> reply = new CompletableFuture<>();
            pending.put(id, reply);
            try {
                link.publish(StorageWire.requests(settings.topicRoot(), settings.deviceId()),
                        StorageWire.encode(header, body), false).get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
                return check(reply.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException | ExecutionException e) {
                last = new IOException("gateway " + settings.deviceId() + " did not answer '" + header.path("op").asText()
                        + "' within " + settings.timeout().toSeconds() + " s (attempt " + attempt + ")", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } finally {
                pending.remove(id);
            }
        }
        throw last;
    }

    private StorageWire.Frame check(StorageWire.Frame reply) throws IOException {
        JsonNode h = reply.header();
        if (h.path("ok").asBoolean(false)) {
            return reply;
        }
        String error = h.path("error").asText("unknown error");
        if (h.path("code").asText().equals("UnsafePath")) {
            throw new UnsafePathException("", "gateway " + settings.deviceId() + " refused the path: " + error);
        }
        throw new IOException("gateway " + settings.deviceId() + ": " + error);
    }

    private static ObjectNode request(String op, EndpointPath path) {
        ObjectNode h = StorageWire.header();
        h.put("op", op).put("path", path.relative());
        return h;
    }

    @Override
    public Optional<Entry> stat(EndpointPath path) throws IOException {
        JsonNode e = call(request("stat", path), null).header().get("entry");
        return e == null || e.isNull() ? Optional.empty() : Optional.of(StorageWire.entry(e));
    }

    @Override
    public List<Entry> list(EndpointPath dir) throws IOException {
        List<Entry> out = new ArrayList<>();
        call(request("list", dir), null).header().path("entries").forEach(e -> out.add(StorageWire.entry(e)));
        batches.listed(dir, out);
        return out;
    }

    @Override
    public void mkdirs(EndpointPath dir) throws IOException {
        call(request("mkdirs", dir), null);
    }

    @Override
    public boolean delete(EndpointPath path, boolean recursive) throws IOException {
        ObjectNode h = request("delete", path);
        h.put("recursive", recursive);
        return call(h, null).header().path("deleted").asBoolean();
    }

    @Override
    public int read(EndpointPath file, long offset, ByteBuffer into) throws IOException {
        if (offset == 0) {
            byte[] whole = batches.read(file);
            if (whole != null && whole.length <= into.remaining()) {
                into.put(whole);
                return whole.length;
            }
        }
        ObjectNode h = request("read", file);
        h.put("offset", offset).put("length", into.remaining());
        ByteBuffer data = call(h, null).body();
        int n = data.remaining();
        into.put(data);
        return n;
    }

    /** One {@code readmany} request: the files' whole contents, null for one the device could not read. */
    private List<byte[]> readMany(List<EndpointPath> files) throws IOException {
        ObjectNode h = StorageWire.header();
        h.put("op", "readmany");
        var paths = h.putArray("paths");
        files.forEach(f -> paths.add(f.relative()));
        StorageWire.Frame reply = call(h, null);
        List<byte[]> out = new ArrayList<>();
        ByteBuffer body = reply.body();
        for (JsonNode length : reply.header().path("lengths")) {
            int n = length.asInt(-1);
            if (n < 0) {
                out.add(null);
                continue;
            }
            byte[] content = new byte[n];
            body.get(content);
            out.add(content);
        }
        return out;
    }

    @Override
    public Upload openUpload(EndpointPath file, long size, Instant modified, String resumeToken) throws IOException {
        ObjectNode h = request("open", file);
        h.put("size", size).put("mtime", modified.toEpochMilli());
        if (resumeToken != null) {
            h.put("token", resumeToken);
        }
        JsonNode reply = call(h, null).header();
        return new RemoteUpload(file, size, modified, reply.path("token").asText(), reply.path("resumed").asBoolean());
    }

    @Override
    public String describe() {
        return "gateway " + settings.deviceId() + " via " + settings.host() + ":" + settings.port();
    }

    /** Stops the provider's connection to the broker. */
    public void close() {
        link.close();
    }

    /** An upload on the device; every request names the file, size, mtime and token so the device can reopen it after a restart. */
    private final class RemoteUpload implements Upload {
        private final EndpointPath file;
        private final long size;
        private final Instant modified;
        private final String token;
        private final boolean resumed;

        RemoteUpload(EndpointPath file, long size, Instant modified, String token, boolean resumed) {
            this.file = file;
            this.size = size;
            this.modified = modified;
            this.token = token;
            this.resumed = resumed;
        }

        private ObjectNode request(String op) {
            ObjectNode h = MqttGatewayStorage.request(op, file);
            h.put("size", size).put("mtime", modified.toEpochMilli()).put("token", token);
            return h;
        }

        @Override public String resumeToken() { return token; }
        @Override public boolean resumed() { return resumed; }

        @Override
        public String write(int index, long offset, ByteBuffer data) throws IOException {
            ObjectNode h = request("write");
            h.put("index", index).put("offset", offset);
            call(h, data);
            return "";
        }

        @Override
        public Optional<String> hashBack(long offset, int length) throws IOException {
            ObjectNode h = request("hash");
            h.put("offset", offset).put("length", length);
            return Optional.of(call(h, null).header().path("sha256").asText());
        }

        /** Reads the partial file on the device (the engine prefers {@link #hashBack}; this says reads work before commit). */
        @Override
        public boolean readBack(long offset, ByteBuffer into) throws IOException {
            if (into.hasRemaining()) {
                ObjectNode h = request("readback");
                h.put("offset", offset).put("length", into.remaining());
                into.put(call(h, null).body());
            }
            return true;
        }

        @Override
        public void commit(Instant mtime, SortedMap<Integer, String> receipts) throws IOException {
            call(request("commit"), null);
        }

        @Override
        public void abort() throws IOException {
            call(request("abort"), null);
        }

        @Override
        public void close() {
            // the device keeps the partial file; nothing is held here
        }
    }
}
