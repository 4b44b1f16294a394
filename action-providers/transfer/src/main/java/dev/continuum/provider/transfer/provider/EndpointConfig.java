package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.S3Storage;
import dev.continuum.provider.transfer.endpoint.Storage;
import dev.continuum.provider.transfer.gateway.MqttGatewayStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
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
 * are accepted for tests only). A {@code gateway} endpoint
 * ({@code "device_id", "broker": "host:port", "topic_root": "continuum", "timeout_seconds": 30}) is an
 * edge device's storage served by its {@code GatewayStorageServer}, reached through the broker.
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
                case "gateway" -> gateway(e, id);
                default -> throw new IllegalArgumentException("endpoint " + id + ": unknown type '" + type
                        + "' (directory, s3 or gateway)");
            };
            registry.register(new Endpoint(id, type, text(e, "owner"), strings(e.path("readers")), strings(e.path("writers")), storage));
        }
        return registry;
    }

    /**
     * {@code broker} ({@code host:port}, or {@code mqtts://host:port} for TLS trusting $CONTINUUM_MQTT_CA_FILE) defaults
     * to $CONTINUUM_MQTT_BROKER, then 127.0.0.1:1883; the login to it is $CONTINUUM_MQTT_USERNAME /
     * $CONTINUUM_MQTT_PASSWORD when set (never in the endpoints file).
     */
    private static Storage gateway(JsonNode e, String id) {
        String broker = e.path("broker").asText(System.getenv().getOrDefault("CONTINUUM_MQTT_BROKER", "127.0.0.1:1883"));
        MqttLink.Options link;
        try {
            link = MqttLink.Options.persistent(broker, id, MqttLink.Tls.fromEnvironment(System.getenv()));
        } catch (IllegalArgumentException problem) {
            throw new IllegalArgumentException("endpoint " + id + ": " + problem.getMessage());
        }
        return new MqttGatewayStorage(new MqttGatewayStorage.Settings(link.host(), link.port(),
                e.path("topic_root").asText("continuum"),
                e.path("device_id").asText(id), Duration.ofSeconds(e.path("timeout_seconds").asInt(30)), 3),
                MqttLink.Login.fromEnvironment(System.getenv()), link.tls());
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
