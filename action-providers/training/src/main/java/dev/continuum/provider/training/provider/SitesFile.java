package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --sites FILE}: the sites one provider runs jobs at, the first the home of new jobs (docs/training.md,
 * "Moving jobs between sites"). Each entry names the site, the directory its checkpoints and models live under, the
 * transfer provider's endpoint serving that directory, and its backend with the options of the command line in
 * snake case ({@code "backend": "slurm", "slurm_url": …}):
 * <pre>{"sites": [
 *   {"name": "dc-a", "root": "/srv/a", "transfer_endpoint": "dc-a", "backend": "local", "gpu_slots": 2},
 *   {"name": "dc-b", "root": "/srv/b", "transfer_endpoint": "dc-b", "backend": "slurm",
 *    "slurm_url": "http://head:6820", "slurm_token_file": "/etc/continuum/slurm.jwt", "partitions": "gpu-a"}]}</pre>
 * Every error names the site and the field.
 */
record SitesFile(List<Site> sites) {

    /** One site as configured: {@code backend} is opened when the provider starts. */
    record Site(String name, Path root, Optional<String> transferEndpoint, BackendChoice backend) {
    }

    private static final Set<String> OWN = Set.of("name", "root", "transfer_endpoint");

    static SitesFile read(Path file) {
        JsonNode doc;
        try {
            doc = ProviderJson.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("--sites " + file + " cannot be read: " + e.getMessage());
        }
        if (!doc.path("sites").isArray() || doc.path("sites").isEmpty()) {
            throw new IllegalArgumentException("--sites " + file + ": \"sites\" must be a non-empty array");
        }
        List<Site> sites = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode s : doc.path("sites")) {
            String name = s.path("name").asText("");
            if (name.isBlank() || name.contains("/") || !names.add(name)) {
                throw new IllegalArgumentException("--sites " + file + ": sites[" + sites.size()
                        + "].name must be a unique non-empty name without '/', not '" + name + "'");
            }
            if (!s.path("root").isTextual() || !Path.of(s.path("root").asText()).isAbsolute()) {
                throw new IllegalArgumentException("--sites " + file + ": site " + name + " needs \"root\", an absolute directory");
            }
            Path root = Path.of(s.path("root").asText()).normalize();
            for (Site other : sites) {
                if (root.startsWith(other.root()) || other.root().startsWith(root)) {
                    throw new IllegalArgumentException("--sites " + file + ": the roots of sites " + other.name() + " and "
                            + name + " overlap; each site needs its own directory");
                }
            }
            List<String> args = new ArrayList<>(List.of("--site", name));
            s.fields().forEachRemaining(f -> {
                if (!OWN.contains(f.getKey())) {
                    args.add("--" + f.getKey().replace('_', '-'));
                    args.add(f.getValue().isArray() ? String.join(",", texts(f.getValue())) : f.getValue().asText());
                }
            });
            BackendChoice backend;
            try {
                backend = BackendChoice.parse(Arguments.parse(args.toArray(String[]::new), BackendChoice.OPTIONS, Set.of()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--sites " + file + ": site " + name + ": " + e.getMessage());
            }
            sites.add(new Site(name, root, Optional.ofNullable(s.get("transfer_endpoint")).map(JsonNode::asText), backend));
        }
        return new SitesFile(sites);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
