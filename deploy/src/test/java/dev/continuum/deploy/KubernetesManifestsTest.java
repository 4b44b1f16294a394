package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes checked without a cluster (none is reachable here): every manifest is a typed Kubernetes
 * resource as fabric8's model reads it, with no field the model does not know; the Quarkus services are probed at
 * the health paths they serve; every environment variable a pod sets is a key its program reads; the engine scales
 * with an HPA. What only a live cluster shows (images, scheduling, Keycloak's import, the overlay's generators
 * through kustomize) is not checked: docs/operations.md "Kubernetes".
 */
class KubernetesManifestsTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path BASE = REPO.resolve("deploy/kubernetes/base");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();
    /** Which module each Continuum image runs, and whether it is a Quarkus app (config keys) or a plain main (env names). */
    private static final Map<String, String> MODULES = Map.of(
            "continuum/engine", "flow-engine/service",
            "continuum/planner", "placement/planner",
            "continuum/inference-provider", "action-providers/inference");
    private static final Set<String> QUARKUS = Set.of("continuum/engine", "continuum/planner");

    @Test
    void shouldListEveryManifestInTheKustomizationAndReadEachAsATypedResourceWithNoUnknownField() throws Exception {
        JsonNode kustomization = YAML.readTree(BASE.resolve("kustomization.yaml").toFile());
        Set<String> listed = new TreeSet<>();
        kustomization.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(BASE)) {
            assertThat(listed).isEqualTo(new TreeSet<>(files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".yaml") && !f.equals("kustomization.yaml")).toList()));
        }
        List<HasMetadata> resources = resources();
        assertThat(resources).extracting(HasMetadata::getKind)
                .contains("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler");
        for (HasMetadata r : resources) {
            assertThat(r).as(r.getKind() + " " + r.getMetadata().getName()).isNotInstanceOf(GenericKubernetesResource.class);
            assertThat(unknownFields(r, r.getKind())).as("fields fabric8's model does not know").isEmpty();
        }
    }

    @Test
    void shouldProbeTheQuarkusServicesAtTheHealthPathsTheyServe() throws Exception {
        for (Container c : continuumContainers()) {
            if (!QUARKUS.contains(image(c))) {
                continue;
            }
            assertThat(c.getReadinessProbe().getHttpGet().getPath()).as(c.getName()).isEqualTo("/q/health/ready");
            assertThat(c.getLivenessProbe().getHttpGet().getPath()).as(c.getName()).isEqualTo("/q/health/live");
            // SmallRye Health serves those paths: the module must have it
            assertThat(Files.readString(REPO.resolve(MODULES.get(image(c))).resolve("pom.xml")))
                    .as(c.getName() + " has quarkus-smallrye-health").contains("<artifactId>quarkus-smallrye-health</artifactId>");
        }
    }

    @Test
    void shouldSetOnlyEnvironmentVariablesItsProgramReads() throws Exception {
        Map<String, String> shared = new java.util.HashMap<>();
        for (HasMetadata r : resources()) {
            if (r instanceof ConfigMap cm && cm.getMetadata().getName().equals("continuum-config")) {
                shared.putAll(cm.getData());
            }
        }
        List<Container> containers = continuumContainers();
        assertThat(containers).extracting(KubernetesManifestsTest::image).containsAll(MODULES.keySet());
        for (Container c : containers) {
            Set<String> names = new TreeSet<>();
            c.getEnv().stream().map(EnvVar::getName).forEach(names::add);
            for (EnvFromSource from : c.getEnvFrom()) {
                assertThat(from.getConfigMapRef().getName()).isEqualTo("continuum-config");
                names.addAll(shared.keySet());
            }
            Path module = REPO.resolve(MODULES.get(image(c)));
            Set<String> read = QUARKUS.contains(image(c)) ? quarkusEnvNames(module) : envLiterals(module, REPO.resolve("auth"),
                    REPO.resolve("action-providers/provider-sdk"));
            assertThat(read).as("what " + module + " reads").isNotEmpty();
            assertThat(names).as("environment of " + c.getName() + " that its program reads").isSubsetOf(read);
        }
    }

    @Test
    void shouldScaleTheEngineDeploymentWithAHorizontalPodAutoscaler() throws Exception {
        HorizontalPodAutoscaler hpa = resources().stream().filter(HorizontalPodAutoscaler.class::isInstance)
                .map(HorizontalPodAutoscaler.class::cast).findFirst().orElseThrow();
        Deployment engine = resources().stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .filter(d -> d.getMetadata().getName().equals(hpa.getSpec().getScaleTargetRef().getName())).findFirst().orElseThrow();
        assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
        assertThat(image(engine.getSpec().getTemplate().getSpec().getContainers().get(0))).isEqualTo("continuum/engine");
        assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(2);
        assertThat(hpa.getSpec().getMetrics()).isNotEmpty();
    }

    private static List<HasMetadata> resources() throws Exception {
        List<HasMetadata> all = new ArrayList<>();
        JsonNode kustomization = YAML.readTree(BASE.resolve("kustomization.yaml").toFile());
        for (JsonNode file : kustomization.path("resources")) {
            for (String doc : Files.readString(BASE.resolve(file.asText())).split("(?m)^---\\s*$")) {
                if (!doc.isBlank()) {
                    KubernetesResource r = KUBERNETES.unmarshal(doc);
                    all.add((HasMetadata) r);
                }
            }
        }
        return all;
    }

    private static List<Container> continuumContainers() throws Exception {
        return resources().stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .flatMap(d -> d.getSpec().getTemplate().getSpec().getContainers().stream())
                .filter(c -> MODULES.containsKey(image(c))).toList();
    }

    private static String image(Container c) {
        return c.getImage().replaceFirst(":[^/:]+$", "");
    }

    /** Where a fabric8 object kept fields its model does not define (its additionalProperties), as JSON paths. */
    private static List<String> unknownFields(Object model, String path) throws Exception {
        List<String> found = new ArrayList<>();
        if (model == null || !model.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return found;
        }
        for (Method m : model.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || !m.getName().startsWith("get") || m.getName().equals("getClass")) {
                continue;
            }
            Object value = m.invoke(model);
            if (m.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + " " + extra.keySet());
                }
            } else if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    found.addAll(unknownFields(item, path + "." + m.getName().substring(3)));
                }
            } else {
                found.addAll(unknownFields(value, path + "." + m.getName().substring(3)));
            }
        }
        return found;
    }

    /**
     * The environment names a Quarkus module reads: its application.properties keys and ${...} references, and
     * the keys of its @ConfigMapping interfaces, each in environment form (upper case, dots and dashes to _).
     */
    private static Set<String> quarkusEnvNames(Path module) throws Exception {
        Set<String> keys = new HashSet<>();
        for (String line : Files.readAllLines(module.resolve("src/main/resources/application.properties"))) {
            if (line.isBlank() || line.startsWith("#") || !line.contains("=")) {
                continue;
            }
            keys.add(line.substring(0, line.indexOf('=')).strip().replaceFirst("^%\\w+\\.", ""));
            Matcher ref = Pattern.compile("\\$\\{([^:}]+)").matcher(line);
            while (ref.find()) {
                keys.add(ref.group(1));
            }
        }
        try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(source);
                Matcher mapping = Pattern.compile("@ConfigMapping\\(prefix = \"([^\"]+)\"\\)\\s*public interface (\\w+)").matcher(text);
                if (mapping.find()) {
                    mappingKeys(text, mapping.group(2), mapping.group(1), keys);
                }
            }
        }
        Set<String> env = new HashSet<>();
        keys.forEach(k -> env.add(k.toUpperCase(java.util.Locale.ROOT).replaceAll("[.\\-]", "_")));
        return env;
    }

    /** The keys of interface {@code type} in {@code source} under {@code prefix}; a member of a nested interface type recurses. */
    private static void mappingKeys(String source, String type, String prefix, Set<String> keys) {
        Matcher body = Pattern.compile("interface " + type + " \\{").matcher(source);
        if (!body.find()) {
            return;
        }
        int depth = 1;
        int i = body.end();
        StringBuilder own = new StringBuilder();
        for (; i < source.length() && depth > 0; i++) {
            char ch = source.charAt(i);
            depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
            if (depth == 1 && ch != '}') {
                own.append(ch);
            }
        }
        Matcher member = Pattern.compile("(?m)^\\s*(?:[\\w.]+<)?([\\w.]+)(?:<[^>]*>)?>?\\s+(\\w+)\\(\\);").matcher(own);
        while (member.find()) {
            String key = prefix + "." + member.group(2).replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
            if (source.contains("interface " + member.group(1) + " {")) {
                mappingKeys(source, member.group(1), key, keys);
            } else {
                keys.add(key);
            }
        }
    }

    /** The environment variable names a plain Java program reads: string literals in CONTINUUM_... form in its sources. */
    private static Set<String> envLiterals(Path... modules) throws Exception {
        Set<String> names = new HashSet<>();
        for (Path module : modules) {
            try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
                for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher literal = Pattern.compile("\"(CONTINUUM_[A-Z_]+)\"").matcher(Files.readString(source));
                    while (literal.find()) {
                        names.add(literal.group(1));
                    }
                }
            }
        }
        return names;
    }
}
