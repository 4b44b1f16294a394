package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md "Installing on Kubernetes": {@code deploy/kubernetes/overlays/production/check-inputs.py} tells the
 * operator which file or key beside the overlay is missing or wrong before {@code kubectl apply -k}, and writes
 * realm.json. Run on a copy of the overlay, as an operator would run it, with the files written as the walkthrough
 * says; which files and secret keys it must ask for is read here from the kustomization and the manifests (Jackson's
 * YAML, not the script's own reading).
 */
class ProductionOverlayInputsTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String OVERLAY = "deploy/kubernetes/overlays/production";

    @Test
    void shouldNameEveryFileTheOverlayGeneratesFromWhenNoneIsWritten() throws Exception {
        Path copy = copyOfTheRepositoryParts();

        Result result = check(copy);

        assertThat(result.exit()).isEqualTo(1);
        for (String file : generatedFrom()) {
            assertThat(result.out()).as("names " + file).contains("missing file " + OVERLAY + "/" + file);
        }
        assertThat(result.out()).contains("kustomization.yaml still names an example: newName: registry.example.org/continuum/engine");
    }

    @Test
    void shouldPassAndRenderWhenEveryFileAndKeyIsWrittenWithoutPrintingASecret() throws Exception {
        Path copy = copyOfTheRepositoryParts();
        Map<String, String> secrets = writeInputs(copy);

        Result result = check(copy, "--write-realm", "https://continuum.lab.example.edu");

        assertThat(result.out()).as(result.out()).contains("wrote " + OVERLAY + "/realm.json", "inputs complete in " + OVERLAY);
        assertThat(result.exit()).isZero();
        secrets.values().forEach(value -> assertThat(result.out()).doesNotContain(value));
        JsonNode realm = new ObjectMapper().readTree(copy.resolve(OVERLAY).resolve("realm.json").toFile());
        assertThat(clientSecret(realm, "continuum-engine")).isEqualTo(secrets.get("engine-client-secret"));
        assertThat(realm.toString()).doesNotContain("-local-secret", "\"credentials\"", "http://localhost:*");
        renderIfKubectl(copy.resolve(OVERLAY));
    }

    @Test
    void shouldNameEachSecretKeyTheManifestsReadWhenSecretsEnvLacksIt() throws Exception {
        Path copy = copyOfTheRepositoryParts();
        Map<String, String> secrets = writeInputs(copy);
        check(copy, "--write-realm", "https://continuum.lab.example.edu");

        for (String key : secretKeysTheManifestsRead()) {
            Map<String, String> without = new LinkedHashMap<>(secrets);
            without.remove(key);
            writeEnv(copy.resolve(OVERLAY).resolve("secrets.env"), without);

            Result result = check(copy);

            assertThat(result.exit()).as(key).isEqualTo(1);
            assertThat(result.out()).contains("secrets.env: no " + key);
        }
    }

    @Test
    void shouldNameTheClientWhoseSecretInRealmJsonDiffersFromSecretsEnv() throws Exception {
        Path copy = copyOfTheRepositoryParts();
        Map<String, String> secrets = writeInputs(copy);
        check(copy, "--write-realm", "https://continuum.lab.example.edu");
        secrets.put("engine-client-secret", "changed-after-the-realm-was-written");
        writeEnv(copy.resolve(OVERLAY).resolve("secrets.env"), secrets);

        Result result = check(copy);

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.out()).contains("realm.json: client continuum-engine's secret differs from engine-client-secret")
                .doesNotContain("changed-after-the-realm-was-written");
    }

    /** What the walkthrough writes: secrets.env, Mosquitto's two files, endpoints.json, your registry and issuer. */
    private static Map<String, String> writeInputs(Path copy) throws Exception {
        Path overlay = copy.resolve(OVERLAY);
        Map<String, String> secrets = new LinkedHashMap<>();
        for (String key : secretKeysTheManifestsRead()) {
            secrets.put(key, key.equals("vault-key") ? Base64.getEncoder().encodeToString(new byte[32]) : "test-" + key + "-0123456789");
        }
        writeEnv(overlay.resolve("secrets.env"), secrets);
        Files.writeString(overlay.resolve("continuum.passwd"), "_continuum:$7$101$salt$hash\n");
        Files.writeString(overlay.resolve("continuum.acl"), "user _continuum\ntopic readwrite #\n");
        Files.writeString(overlay.resolve("endpoints.json"), "{\"endpoints\": []}\n");
        Path kustomization = overlay.resolve("kustomization.yaml");
        Files.writeString(kustomization, Files.readString(kustomization).replace("registry.example.org", "registry.lab.example.edu")
                .replace("auth.example.org", "auth.lab.example.edu"));
        return secrets;
    }

    private static void writeEnv(Path file, Map<String, String> values) throws Exception {
        StringBuilder text = new StringBuilder();
        values.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Files.writeString(file, text);
    }

    /** The files the overlay's generators read (kustomization.yaml's configMapGenerator and secretGenerator). */
    private static Set<String> generatedFrom() throws Exception {
        JsonNode kustomization = YAML.readTree(REPO.resolve(OVERLAY).resolve("kustomization.yaml").toFile());
        Set<String> files = new TreeSet<>();
        for (String generator : List.of("configMapGenerator", "secretGenerator")) {
            for (JsonNode g : kustomization.path(generator)) {
                g.path("files").forEach(f -> files.add(f.asText()));
                g.path("envs").forEach(f -> files.add(f.asText()));
            }
        }
        assertThat(files).contains("secrets.env", "realm.json");
        return files;
    }

    /** Every key of the Secret continuum-secrets that a base manifest reads (secretKeyRef anywhere in it). */
    private static Set<String> secretKeysTheManifestsRead() throws Exception {
        Set<String> keys = new TreeSet<>();
        try (Stream<Path> files = Files.list(REPO.resolve("deploy/kubernetes/base"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                for (String doc : Files.readString(file).split("(?m)^---\\s*$")) {
                    if (!doc.isBlank()) {
                        collect(YAML.readTree(doc), keys);
                    }
                }
            }
        }
        assertThat(keys).contains("vault-key", "db-password");
        return keys;
    }

    private static void collect(JsonNode node, Set<String> keys) {
        JsonNode ref = node.path("secretKeyRef");
        if (ref.path("name").asText().equals("continuum-secrets")) {
            keys.add(ref.path("key").asText());
        }
        node.forEach(child -> collect(child, keys));
    }

    private static String clientSecret(JsonNode realm, String clientId) {
        for (JsonNode client : realm.path("clients")) {
            if (client.path("clientId").asText().equals(clientId)) {
                return client.path("secret").asText();
            }
        }
        throw new AssertionError("no client " + clientId);
    }

    /** What `kubectl apply -k` would send, rendered by kubectl's kustomize (skipped without kubectl). */
    private static void renderIfKubectl(Path overlay) throws Exception {
        boolean kubectl = Stream.of(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, "kubectl")));
        Assumptions.assumeTrue(kubectl, "kubectl (with its kustomize) is on the PATH");
        Process kustomize = new ProcessBuilder("kubectl", "kustomize", overlay.toString()).redirectErrorStream(true).start();
        String out = new String(kustomize.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kustomize.waitFor()).as("kubectl kustomize: " + out).isZero();
        assertThat(out).contains("name: continuum-secrets-", "registry.lab.example.edu/continuum/engine:0.1.0");
    }

    /** deploy/kubernetes, deploy/grafana and the realm the script starts from, in a fresh directory. */
    private static Path copyOfTheRepositoryParts() throws Exception {
        Path copy = Files.createTempDirectory("overlay-inputs");
        for (String dir : List.of("deploy/kubernetes", "deploy/grafana", "auth/src/main/resources/keycloak")) {
            try (Stream<Path> files = Files.walk(REPO.resolve(dir))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Path to = copy.resolve(REPO.relativize(f).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        for (String operators : List.of("secrets.env", "continuum.passwd", "continuum.acl", "endpoints.json", "realm.json")) {
            Files.deleteIfExists(copy.resolve(OVERLAY).resolve(operators)); // a developer's own, if any
        }
        return copy;
    }

    private record Result(int exit, String out) {}

    /** The script of the copy, run from the copy's root as the docs run it. */
    private static Result check(Path copy, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("python3", OVERLAY + "/check-inputs.py"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(copy.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("check-inputs.py finished").isTrue();
        return new Result(p.exitValue(), out);
    }
}
