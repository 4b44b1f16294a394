package dev.continuum.edge.gateway.app;

import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.ModelDeployment;
import dev.continuum.edge.protocol.Wire;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * Deploys the models the cloud sends: fetches the file (unless its digest is cached), keeps it only when
 * its content matches the digest, names it, and retires the version it replaces. A deployment that fails
 * changes nothing and is logged; the next heartbeat shows one that succeeded.
 */
final class ModelDeployer {

    private static final Logger LOG = Logger.getLogger(ModelDeployer.class.getName());

    private final String deviceId;
    private final ModelRepository models;

    ModelDeployer(String deviceId, ModelRepository models) {
        this.deviceId = deviceId;
        this.models = models;
    }

    /** Returns whether the deployment in {@code payload} took effect. */
    boolean deploy(byte[] payload) {
        try {
            ModelDeployment d = Wire.decode(payload, ModelDeployment.class);
            if (d.name() == null || d.version() == null || d.digest() == null) {
                throw new IllegalArgumentException("deployment needs name, version and digest");
            }
            if (!models.has(d.digest())) {
                try (InputStream in = open(URI.create(d.url()))) {
                    models.install(in, d.digest());
                }
            }
            models.deploy(d.name(), d.version(), d.digest());
            if (d.retire() != null && !d.retire().equals(d.digest())) {
                models.retire(d.retire());
            }
            LOG.info(() -> deviceId + " deployed " + d.name() + "@" + d.version() + " = " + d.digest());
            return true;
        } catch (Exception e) {
            LOG.warning(() -> deviceId + " refused model deployment: " + e.getMessage());
            return false;
        }
    }

    private static InputStream open(URI url) throws Exception {
        return switch (url.getScheme()) {
            case "file" -> Files.newInputStream(Path.of(url));
            case "http", "https" -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).build(),
                    HttpResponse.BodyHandlers.ofInputStream()).body();
            default -> throw new IllegalArgumentException("model url must be file:, http: or https:");
        };
    }
}
