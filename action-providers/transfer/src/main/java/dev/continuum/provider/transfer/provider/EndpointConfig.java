package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.S3Storage;
import dev.continuum.provider.transfer.endpoint.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the endpoints file:
 * <pre>
 * {"endpoints": [
 *   {"id": "dc-scratch", "type": "directory", "root": "/srv/scratch",
 *    "owner": "urn:continuum:user:alice", "readers": ["public"], "writers": []},
 *   {"id": "archive", "type": "s3", "url": "http://127.0.0.1:9000", "bucket": "lab", "prefix": "raw",
 *    "region": "us-east-1", "access_key_env": "ARCHIVE_KEY", "secret_key_env": "ARCHIVE_SECRET",
 *    "owner": "urn:continuum:user:alice"}
 * ]}
 * </pre>
 * S3 keys come from the named environment variables ({@code access_key}/{@code secret_key} inline
 * are accepted for tests only). {@code gateway} endpoints need the edge gateway's adapter.
 */
public final class EndpointConfig {

    private EndpointConfig() {}

    public static EndpointRegistry load(Path file, int chunkBytes) {
        try {
            return parse(ProviderJson.mapper().readTree(file.toFile()), file.getParent(), chunkBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read endpoints from " + file, e);
        }
    }

    public static EndpointRegistry parse(JsonNode doc, Path base, int chunkBytes) {
        EndpointRegistry registry = new EndpointRegistry();
        for (JsonNode e : doc.path("endpoints")) {
            String id = text(e, "id");
            String type = text(e, "type");
            Storage storage = switch (type) {
                case "directory" -> new LocalStorage(base == null ? Path.of(text(e, "root")) : base.resolve(text(e, "root")));
                case "s3" -> new S3Storage(S3Storage.client(e.hasNonNull("url") ? URI.create(e.get("url").asText()) : null,
                        e.path("region").asText("us-east-1"), secret(e, "access_key"), secret(e, "secret_key")),
                        text(e, "bucket"), e.path("prefix").asText(""), chunkBytes);
                case "gateway" -> throw new IllegalArgumentException("endpoint " + id
                        + ": gateway storage needs the edge gateway adapter (see GatewayStorage); use type directory meanwhile");
                default -> throw new IllegalArgumentException("endpoint " + id + ": unknown type '" + type
                        + "' (directory, s3 or gateway)");
            };
            registry.register(new Endpoint(id, type, text(e, "owner"), strings(e.path("readers")), strings(e.path("writers")), storage));
        }
        return registry;
    }

    private static String text(JsonNode e, String name) {
        if (!e.hasNonNull(name)) {
            throw new IllegalArgumentException("endpoint " + e.path("id").asText("?") + ": '" + name + "' is required");
        }
        return e.get(name).asText();
    }

    private static String secret(JsonNode e, String name) {
        if (e.hasNonNull(name + "_env")) {
            String value = System.getenv(e.get(name + "_env").asText());
            if (value == null) {
                throw new IllegalArgumentException("endpoint " + e.path("id").asText() + ": environment variable "
                        + e.get(name + "_env").asText() + " is not set");
            }
            return value;
        }
        return text(e, name);
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
