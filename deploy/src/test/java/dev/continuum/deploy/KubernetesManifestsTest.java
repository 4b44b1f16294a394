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
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
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
 * resource as fabric8's model reads it, with no field the model does not know; every Continuum service is probed
 * over HTTP at the health path its program serves (SmallRye Health, or provider-sdk's /health); every provider that
 * runs as its own process is deployed, its actions in PostgreSQL; every environment variable a pod sets is a key its
 * program reads; volumes, ConfigMap keys, secret keys and service accounts a pod names exist; the training provider
 * may manage Jobs and Pods; the engine scales with an HPA; every workload whose program exports spans takes the
 * collector and sampling from one ConfigMap, which an overlay turns on; the inference provider reaches the transfer
 * provider to move inputs between sites; every Continuum image named is one `./continuum images` builds from the
 * Deployment's module. What only a live cluster shows (the images running in pods, scheduling, Keycloak's import, the
 * overlay's generators through kustomize) is not checked: docs/operations.md "Kubernetes".
 */
class KubernetesManifestsTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path BASE = REPO.resolve("deploy/kubernetes/base");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();
    /** The annotation on a Deployment naming the module (directory) its Continuum image is built from. */
    private static final String MODULE = "continuum.dev/module";

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
                .contains("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler", "PersistentVolumeClaim",
                        "ServiceAccount", "Role", "RoleBinding");
        for (HasMetadata r : resources) {
            assertThat(r).as(r.getKind() + " " + r.getMetadata().getName()).isNotInstanceOf(GenericKubernetesResource.class);
            assertThat(unknownFields(r, r.getKind())).as("fields fabric8's model does not know").isEmpty();
        }
    }

    @Test
    void shouldProbeEveryContinuumServiceOverHttpAtTheHealthPathItsProgramServes() throws Exception {
        for (Map.Entry<Container, Path> e : continuumContainers().entrySet()) {
            Container c = e.getKey();
            Path module = e.getValue();
            String ready;
            String live;
            if (quarkus(module)) {
                ready = "/q/health/ready";
                live = "/q/health/live";
                // SmallRye Health serves those paths: the module must have it
                assertThat(Files.readString(module.resolve("pom.xml"))).as(c.getName() + " has quarkus-smallrye-health")
                        .contains("<artifactId>quarkus-smallrye-health</artifactId>");
            } else {
                ready = live = "/health";
                // provider-sdk's ProviderLauncher.serve adds GET /health on the router that serves the actions
                assertThat(sources(module)).as(c.getName() + " starts through ProviderLauncher.serve, which serves /health")
                        .anyMatch(text -> text.contains("ProviderLauncher.serve("));
            }
            assertThat(c.getReadinessProbe()).as(c.getName() + " readiness").isNotNull();
            assertThat(c.getLivenessProbe()).as(c.getName() + " liveness").isNotNull();
            assertThat(c.getReadinessProbe().getHttpGet()).as(c.getName() + " readiness over HTTP").isNotNull();
            assertThat(c.getLivenessProbe().getHttpGet()).as(c.getName() + " liveness over HTTP").isNotNull();
            assertThat(c.getReadinessProbe().getHttpGet().getPath()).as(c.getName()).isEqualTo(ready);
            assertThat(c.getLivenessProbe().getHttpGet().getPath()).as(c.getName()).isEqualTo(live);
            assertThat(c.getPorts()).as(c.getName() + " names the probed port")
                    .anyMatch(p -> p.getName().equals(c.getLivenessProbe().getHttpGet().getPort().getStrVal()));
        }
    }

    @Test
    void shouldDeployEveryActionProviderThatRunsAsItsOwnProcess() throws Exception {
        Set<Path> deployed = new HashSet<>(continuumContainers().values());
        String engine = Files.readString(REPO.resolve("flow-engine/service/pom.xml"));
        try (Stream<Path> modules = Files.list(REPO.resolve("action-providers"))) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
                boolean ownProcess = sources(module).stream().anyMatch(text -> text.contains("ProviderLauncher.serve("));
                // a provider the engine has as a dependency (the built-in ones) runs inside the engine's pods
                boolean inEngine = engine.contains("<artifactId>" + artifactId(module) + "</artifactId>");
                if (ownProcess && !inEngine) {
                    assertThat(deployed).as(module + " has a Deployment").contains(module);
                }
            }
        }
        assertThat(deployed).contains(REPO.resolve("action-providers/transfer"), REPO.resolve("action-providers/training"));
    }

    @Test
    void shouldKeepEveryProvidersActionsInPostgresql() throws Exception {
        for (Map.Entry<Container, Path> e : continuumContainers().entrySet()) {
            for (String prefix : storePrefixes(e.getValue())) {
                Set<String> names = new TreeSet<>();
                e.getKey().getEnv().forEach(v -> names.add(v.getName()));
                assertThat(names).as(e.getKey().getName() + " keeps its actions in PostgreSQL (ADR 0027)")
                        .contains(prefix + "_DB_URL", prefix + "_DB_USER", prefix + "_DB_PASSWORD", prefix + "_INSTANCE_ID");
            }
        }
    }

    @Test
    void shouldDefineWhatThePodsReferTo() throws Exception {
        List<HasMetadata> resources = resources();
        Set<String> defined = new HashSet<>();
        resources.forEach(r -> defined.add(r.getKind() + "/" + r.getMetadata().getName()));
        String overlay = Files.readString(REPO.resolve("deploy/kubernetes/overlays/production/kustomization.yaml"));
        for (Deployment d : deployments(resources)) {
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            for (Volume v : pod.getVolumes()) {
                if (v.getPersistentVolumeClaim() != null) {
                    assertThat(defined).as(d.getMetadata().getName() + " volume " + v.getName())
                            .contains("PersistentVolumeClaim/" + v.getPersistentVolumeClaim().getClaimName());
                }
                if (v.getConfigMap() != null) {
                    assertThat(defined.contains("ConfigMap/" + v.getConfigMap().getName())
                            || overlay.contains("- name: " + v.getConfigMap().getName()))
                            .as(d.getMetadata().getName() + " volume " + v.getName() + ": a ConfigMap of the base or the overlay's").isTrue();
                }
            }
            for (Container c : pod.getContainers()) {
                for (EnvVar v : c.getEnv()) {
                    if (v.getValueFrom() != null && v.getValueFrom().getSecretKeyRef() != null) {
                        // the operator writes secrets.env from the key list in the overlay
                        assertThat(overlay).as(c.getName() + " " + v.getName() + ": its secret key is listed in the overlay")
                                .contains(v.getValueFrom().getSecretKeyRef().getKey());
                    }
                    if (v.getValueFrom() != null && v.getValueFrom().getConfigMapKeyRef() != null) {
                        var ref = v.getValueFrom().getConfigMapKeyRef();
                        ConfigMap cm = resources.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
                                .filter(m -> m.getMetadata().getName().equals(ref.getName())).findFirst().orElseThrow();
                        assertThat(cm.getData()).as(c.getName() + " " + v.getName()).containsKey(ref.getKey());
                    }
                }
            }
            if (pod.getServiceAccountName() != null) {
                String account = pod.getServiceAccountName();
                assertThat(defined).contains("ServiceAccount/" + account);
                List<String> granted = new ArrayList<>();
                for (HasMetadata r : resources) {
                    if (r instanceof RoleBinding rb && rb.getSubjects().stream().anyMatch(s -> s.getName().equals(account))) {
                        resources.stream().filter(Role.class::isInstance).map(Role.class::cast)
                                .filter(role -> role.getMetadata().getName().equals(rb.getRoleRef().getName()))
                                .flatMap(role -> role.getRules().stream()).forEach(rule -> granted.addAll(rule.getResources()));
                    }
                }
                assertThat(granted).as(account + ": what its Role lets it manage in its namespace").isNotEmpty();
            }
        }
    }

    @Test
    void shouldLetTheTrainingProviderManageJobsAndPodsInItsNamespaceAndReadNodes() throws Exception {
        List<HasMetadata> resources = resources();
        Deployment training = deployments(resources).stream()
                .filter(d -> "action-providers/training".equals(d.getMetadata().getAnnotations().get(MODULE))).findFirst().orElseThrow();
        String account = training.getSpec().getTemplate().getSpec().getServiceAccountName();
        assertThat(account).as("the training provider runs as its own ServiceAccount").isNotNull();
        Map<String, Set<String>> verbs = new java.util.TreeMap<>();
        for (HasMetadata r : resources) {
            List<io.fabric8.kubernetes.api.model.rbac.Subject> subjects = r instanceof RoleBinding rb ? rb.getSubjects()
                    : r instanceof ClusterRoleBinding crb ? crb.getSubjects() : List.of();
            if (subjects.stream().noneMatch(s -> s.getKind().equals("ServiceAccount") && s.getName().equals(account))) {
                continue;
            }
            String role = r instanceof RoleBinding rb ? rb.getRoleRef().getName() : ((ClusterRoleBinding) r).getRoleRef().getName();
            for (HasMetadata candidate : resources) {
                List<PolicyRule> rules = candidate instanceof Role x && x.getMetadata().getName().equals(role) && r instanceof RoleBinding
                        ? x.getRules()
                        : candidate instanceof ClusterRole x && x.getMetadata().getName().equals(role) && r instanceof ClusterRoleBinding
                        ? x.getRules() : List.of();
                for (PolicyRule rule : rules) {
                    rule.getResources().forEach(res -> verbs.computeIfAbsent(res, k -> new TreeSet<>()).addAll(rule.getVerbs()));
                }
            }
        }
        // what KubernetesBackend calls: create, read and edit (suspend/unsuspend) Jobs; list pods; exec a signal; list nodes
        assertThat(verbs.get("jobs")).as("jobs").contains("create", "get", "list", "patch", "update");
        assertThat(verbs.get("pods")).as("pods").contains("get", "list");
        assertThat(verbs.get("pods/exec")).as("pods/exec").contains("create");
        assertThat(verbs.get("nodes")).as("nodes, cluster-wide").contains("get", "list");
        assertThat(String.join(" ", training.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()))
                .contains("--backend kubernetes").contains("--kube-checkpoint-claim continuum-training-checkpoints");
    }

    @Test
    void shouldSetOnlyEnvironmentVariablesItsProgramReads() throws Exception {
        List<HasMetadata> resources = resources();
        Map<Container, Path> containers = continuumContainers();
        assertThat(containers).isNotEmpty();
        for (Map.Entry<Container, Path> e : containers.entrySet()) {
            Container c = e.getKey();
            Set<String> names = new TreeSet<>();
            c.getEnv().stream().map(EnvVar::getName).forEach(names::add);
            for (EnvFromSource from : c.getEnvFrom()) {
                assertThat(from.getConfigMapRef().getName()).isIn("continuum-config", TELEMETRY);
                names.addAll(configMap(resources, from.getConfigMapRef().getName()).getData().keySet());
            }
            assertThat(names).as("environment of " + c.getName() + " that its program reads").isSubsetOf(readBy(e.getValue()));
        }
    }

    /**
     * What a Continuum module's program reads from its environment: configuration keys (Quarkus, with its own HTTPS
     * keys) or the CONTINUUM_* names of a plain main (its sources, auth's, provider-sdk's and edge-protocol's MQTT link,
     * which reads CONTINUUM_MQTT_CA_FILE), and the OpenTelemetry settings of a program that exports spans.
     */
    private static Set<String> readBy(Path module) throws Exception {
        Set<String> read = new HashSet<>(quarkus(module) ? quarkusEnvNames(module) : envLiterals(module, REPO.resolve("auth"),
                REPO.resolve("action-providers/provider-sdk"), REPO.resolve("edge-protocol")));
        if (quarkus(module)) {
            read.addAll(QUARKUS_HTTPS);
        }
        if (traces(module)) {
            // the OpenTelemetry settings: Quarkus' run-time quarkus.otel keys, or the SDK's standard OTEL_* names
            read.addAll(quarkus(module) ? quarkusOtelPhases().keySet() : OTEL_STANDARD);
        }
        assertThat(read).as("what " + module + " reads").isNotEmpty();
        return read;
    }

    /** quarkus-vertx-http's run-time HTTPS keys (its HttpConfiguration): PEM certificate and key, port, plain refused. */
    private static final Set<String> QUARKUS_HTTPS = Set.of("QUARKUS_HTTP_SSL_PORT", "QUARKUS_HTTP_INSECURE_REQUESTS",
            "QUARKUS_HTTP_SSL_CERTIFICATE_FILES", "QUARKUS_HTTP_SSL_CERTIFICATE_KEY_FILES");

    /**
     * The production overlay encrypts every link (issue 33): each Continuum container sets only what its program reads,
     * serves HTTPS only (Quarkus: plain requests disabled; providers: CONTINUUM_TLS_CERT_FILE/KEY_FILE) from the Secret
     * continuum-tls mounted where its settings point, probes with HTTPS, calls https:// and mqtts:// addresses only, and
     * Mosquitto listens with TLS only, with the same Secret's files.
     */
    @Test
    void shouldEncryptEveryLinkInTheProductionOverlayFromTheMountedTlsSecret() throws Exception {
        List<HasMetadata> rendered = renderedOverlay();
        for (Deployment d : deployments(rendered)) {
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            for (Container c : pod.getContainers()) {
                String name = d.getMetadata().getName();
                if (!name.startsWith("continuum-")) {
                    continue;
                }
                Path module = REPO.resolve(d.getMetadata().getAnnotations().get(MODULE)).normalize();
                Map<String, String> env = new java.util.HashMap<>();
                c.getEnv().forEach(v -> env.put(v.getName(), v.getValue()));
                assertThat(env.keySet()).as(name + ": environment its program reads").isSubsetOf(readBy(module));
                String mount = pod.getVolumes().stream().filter(v -> v.getSecret() != null
                                && "continuum-tls".equals(v.getSecret().getSecretName())).map(Volume::getName)
                        .flatMap(v -> c.getVolumeMounts().stream().filter(m -> m.getName().equals(v)))
                        .map(m -> m.getMountPath()).findFirst().orElse(null);
                assertThat(mount).as(name + " mounts the Secret continuum-tls").isNotNull();
                if (quarkus(module)) {
                    assertThat(env).as(name).containsEntry("QUARKUS_HTTP_INSECURE_REQUESTS", "disabled")
                            .containsEntry("QUARKUS_HTTP_SSL_CERTIFICATE_FILES", mount + "/tls.crt")
                            .containsEntry("QUARKUS_HTTP_SSL_CERTIFICATE_KEY_FILES", mount + "/tls.key");
                    assertThat(env.get("QUARKUS_HTTP_SSL_PORT")).as(name + ": HTTPS on the port its Service names")
                            .isEqualTo(String.valueOf(c.getPorts().get(0).getContainerPort()));
                } else {
                    assertThat(env).as(name).containsEntry("CONTINUUM_TLS_CERT_FILE", mount + "/tls.crt")
                            .containsEntry("CONTINUUM_TLS_KEY_FILE", mount + "/tls.key");
                }
                env.forEach((k, v) -> {
                    if (v != null && v.startsWith("/") && k.matches(".*(CA|CERTIFICATE|CERT|KEY)_FILES?")) {
                        assertThat(v).as(name + " " + k).startsWith(mount + "/");
                    }
                });
                assertThat(c.getReadinessProbe().getHttpGet().getScheme()).as(name + " readiness probe").isEqualTo("HTTPS");
                assertThat(c.getLivenessProbe().getHttpGet().getScheme()).as(name + " liveness probe").isEqualTo("HTTPS");
                List<String> addresses = new ArrayList<>(env.values().stream().filter(java.util.Objects::nonNull).toList());
                if (c.getArgs() != null) {
                    addresses.addAll(c.getArgs());
                }
                for (String a : addresses) {
                    assertThat(a).as(name + ": no plain in-cluster address").doesNotStartWith("http://continuum-")
                            .doesNotMatch("(mqtt://)?mosquitto:\\d+");
                }
            }
        }
        ConfigMap providers = configMap(rendered, "continuum-providers-config");
        assertThat(providers.getData().get("transfer-url")).startsWith("https://");
        String mosquitto = configMap(rendered, "mosquitto-config").getData().get("mosquitto.conf");
        assertThat(mosquitto).contains("listener 8883").contains("cafile /mosquitto/tls/ca.crt")
                .contains("certfile /mosquitto/tls/tls.crt").contains("keyfile /mosquitto/tls/tls.key")
                .doesNotContain("listener 1883");
        Deployment broker = deployments(rendered).stream().filter(d -> d.getMetadata().getName().equals("mosquitto")).findFirst().orElseThrow();
        assertThat(broker.getSpec().getTemplate().getSpec().getVolumes()).anyMatch(v -> v.getSecret() != null
                && "continuum-tls".equals(v.getSecret().getSecretName()));
        assertThat(broker.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getContainerPort()).isEqualTo(8883);
    }

    @Test
    void shouldGiveEveryTracingContinuumWorkloadTheCollectorAndSamplingOfOneConfigMap() throws Exception {
        List<HasMetadata> resources = resources();
        Map<String, String> telemetry = configMap(resources, TELEMETRY).getData();
        Map<String, String> quarkusPhases = quarkusOtelPhases();
        Set<Path> tracing = new TreeSet<>();
        for (Map.Entry<Container, Path> e : continuumContainers().entrySet()) {
            Container c = e.getKey();
            Path module = e.getValue();
            if (!traces(module)) {
                continue;
            }
            tracing.add(module);
            Map<String, String> fromTelemetry = telemetrySettings(c);
            if (quarkus(module)) {
                // Quarkus reads the same settings as quarkus.otel.*: each from the ConfigMap's OTEL_* key
                for (String key : TRACE_SETTINGS) {
                    if (key.equals("OTEL_TRACES_SAMPLER")) {
                        continue; // fixed at build, below
                    }
                    assertThat(fromTelemetry).as(c.getName() + " QUARKUS_" + key + " from " + TELEMETRY)
                            .containsEntry("QUARKUS_" + key, key);
                }
                for (EnvVar v : c.getEnv()) {
                    if (v.getName().startsWith("QUARKUS_OTEL_")) {
                        // a build-time key set in a pod is ignored (Quarkus only warns): the sampler, for one
                        assertThat(quarkusPhases.get(v.getName())).as(c.getName() + " " + v.getName() + ": read at run time")
                                .isEqualTo("RUN_TIME");
                    }
                }
                assertThat(Files.readAllLines(module.resolve("src/main/resources/application.properties")))
                        .as(c.getName() + ": a ratio over the trace id (the run id) keeps whole runs, the same on every instance")
                        .contains("quarkus.otel.traces.sampler=traceidratio");
            } else {
                for (String key : TRACE_SETTINGS) {
                    assertThat(fromTelemetry).as(c.getName() + " " + key + " from " + TELEMETRY).containsEntry(key, key);
                }
            }
        }
        assertThat(tracing).as("the workloads whose program exports spans").contains(REPO.resolve("flow-engine/service"),
                REPO.resolve("action-providers/inference"), REPO.resolve("action-providers/transfer"),
                REPO.resolve("action-providers/training"));
        assertThat(telemetry).containsOnlyKeys(TRACE_SETTINGS);
        // the providers' exporter (continuum-telemetry's OtlpTraces) speaks OTLP over HTTP only
        assertThat(telemetry.get("OTEL_EXPORTER_OTLP_PROTOCOL")).isEqualTo("http/protobuf");
        assertThat(java.net.URI.create(telemetry.get("OTEL_EXPORTER_OTLP_ENDPOINT")).getScheme()).isIn("http", "https");
        assertThat(telemetry.get("OTEL_TRACES_SAMPLER")).as("the providers follow the engine's decision")
                .startsWith("parentbased_");
        assertThat(Double.parseDouble(telemetry.get("OTEL_TRACES_SAMPLER_ARG"))).isBetween(0.0, 1.0);
    }

    @Test
    void shouldLetTheOverlayTurnTracesOnTowardsItsOwnCollector() throws Exception {
        JsonNode overlay = YAML.readTree(REPO.resolve("deploy/kubernetes/overlays/production/kustomization.yaml").toFile());
        Map<String, String> merged = new java.util.HashMap<>(configMap(resources(), TELEMETRY).getData());
        for (JsonNode generator : overlay.path("configMapGenerator")) {
            if (generator.path("name").asText().equals(TELEMETRY)) {
                assertThat(generator.path("behavior").asText()).as("merged into the base's keys").isEqualTo("merge");
                generator.path("literals").forEach(l -> merged.put(l.asText().substring(0, l.asText().indexOf('=')),
                        l.asText().substring(l.asText().indexOf('=') + 1)));
            }
        }
        assertThat(merged).containsOnlyKeys(TRACE_SETTINGS).containsEntry("OTEL_SDK_DISABLED", "false");
        assertThat(merged.get("OTEL_EXPORTER_OTLP_ENDPOINT")).as("the overlay's collector")
                .isNotEqualTo(configMap(resources(), TELEMETRY).getData().get("OTEL_EXPORTER_OTLP_ENDPOINT"))
                .endsWith(":4318");
        assertThat(Double.parseDouble(merged.get("OTEL_TRACES_SAMPLER_ARG"))).isBetween(0.0, 1.0);
    }

    /**
     * Every pod tells Prometheus whether to scrape it, and a pod that says yes names the port and path where its
     * program really serves metrics: a Continuum Quarkus service with Micrometer's Prometheus registry at its
     * configured path, a provider started by provider-sdk's launcher at ProviderMetrics' path, both on the http port,
     * Keycloak on its management port once KC_METRICS_ENABLED; a pod whose program serves none (Mosquitto) says no
     * rather than point Prometheus at a 404.
     */
    @Test
    void shouldTellPrometheusWhereEveryPodServesItsMetrics() throws Exception {
        Map<Container, Path> continuum = continuumContainers();
        Set<String> scraped = new TreeSet<>();
        for (Deployment d : deployments(resources())) {
            String name = d.getMetadata().getName();
            Map<String, String> annotations = d.getSpec().getTemplate().getMetadata().getAnnotations() == null ? Map.of()
                    : d.getSpec().getTemplate().getMetadata().getAnnotations();
            assertThat(annotations).as(name + ": its pods say whether Prometheus scrapes them").containsKey(SCRAPE);
            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            Path module = continuum.get(c);
            String served = module != null ? metricsPath(module)
                    : image(c).equals("quay.io/keycloak/keycloak") && c.getEnv().stream().anyMatch(v ->
                            v.getName().equals("KC_METRICS_ENABLED") && "true".equals(v.getValue())) ? "/metrics" : null;
            assertThat(annotations.get(SCRAPE)).as(name + ": scraped exactly when its program serves metrics")
                    .isEqualTo(String.valueOf(served != null));
            if (served == null) {
                continue;
            }
            scraped.add(name);
            assertThat(annotations.get("prometheus.io/path")).as(name + " metrics path").isEqualTo(served);
            int port = Integer.parseInt(annotations.get("prometheus.io/port"));
            String expectedPort = module != null ? "http" : "management"; // Keycloak serves /metrics on management only
            assertThat(c.getPorts()).as(name + ": the annotated port is its " + expectedPort + " port")
                    .anyMatch(p -> p.getContainerPort() == port && p.getName().equals(expectedPort));
        }
        assertThat(scraped).contains("continuum-engine", "continuum-planner", "keycloak", "continuum-transfer-provider",
                "continuum-inference-provider", "continuum-training-provider");
    }

    /**
     * The production overlay as kubectl's kustomize renders it (in a copy, with the files the operator writes stubbed):
     * Grafana's dashboard sidecar finds deploy/grafana/continuum.json in a ConfigMap labelled grafana_dashboard,
     * and every pod keeps its Prometheus annotations and the collector turned on.
     */
    @Test
    void shouldRenderTheOverlayWithTheGrafanaDashboardForTheSidecar() throws Exception {
        List<HasMetadata> rendered = renderedOverlay();
        List<ConfigMap> dashboards = rendered.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
                .filter(m -> m.getMetadata().getLabels() != null && "1".equals(m.getMetadata().getLabels().get("grafana_dashboard")))
                .toList();
        assertThat(dashboards).as("ConfigMaps the Grafana sidecar loads").hasSize(1);
        assertThat(dashboards.get(0).getMetadata().getNamespace()).isEqualTo("continuum");
        assertThat(dashboards.get(0).getData()).containsOnlyKeys("continuum.json");
        assertThat(YAML.readTree(dashboards.get(0).getData().get("continuum.json")))
                .isEqualTo(YAML.readTree(REPO.resolve("deploy/grafana/continuum.json").toFile()));
        for (Deployment d : deployments(rendered)) {
            assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations()).as(d.getMetadata().getName()).containsKey(SCRAPE);
        }
        assertThat(configMap(rendered, TELEMETRY).getData()).containsEntry("OTEL_SDK_DISABLED", "false");
    }

    /** deploy/kubernetes/overlays/production through `kubectl kustomize`, in a copy where the operator's files exist. */
    private static List<HasMetadata> renderedOverlay() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl"))), "kubectl (with its kustomize) is on the PATH");
        Path copy = Files.createTempDirectory("overlay");
        for (String dir : List.of("deploy/kubernetes", "deploy/grafana")) {
            try (Stream<Path> files = Files.walk(REPO.resolve(dir))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Path to = copy.resolve(REPO.relativize(f).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        Path overlay = copy.resolve("deploy/kubernetes/overlays/production");
        for (String operators : List.of("secrets.env", "continuum.passwd", "continuum.acl", "endpoints.json", "realm.json")) {
            Files.writeString(overlay.resolve(operators), operators.endsWith(".json") ? "{}" : "");
        }
        Process kustomize = new ProcessBuilder("kubectl", "kustomize", overlay.toString()).redirectErrorStream(true).start();
        String out = new String(kustomize.getInputStream().readAllBytes());
        assertThat(kustomize.waitFor()).as("kubectl kustomize: " + out).isZero();
        List<HasMetadata> all = new ArrayList<>();
        for (String doc : out.split("(?m)^---\\s*$")) {
            all.add((HasMetadata) KUBERNETES.unmarshal(doc));
        }
        return all;
    }

    /** Where a Continuum module's program serves Prometheus metrics; null when it serves none. */
    private static String metricsPath(Path module) throws Exception {
        if (quarkus(module)) {
            return quarkusMetricsPath(module);
        }
        // ProviderLauncher.serve adds ProviderMetrics' route to every provider it starts (provider-sdk)
        if (sources(module).stream().noneMatch(t -> t.contains("ProviderLauncher.serve("))) {
            return null;
        }
        java.util.regex.Matcher path = java.util.regex.Pattern.compile("String PATH = \"([^\"]+)\"").matcher(Files.readString(
                REPO.resolve("action-providers/provider-sdk/src/main/java/dev/continuum/provider/server/ProviderMetrics.java")));
        assertThat(path.find()).as("ProviderMetrics.PATH").isTrue();
        return path.group(1);
    }

    /**
     * Where a Continuum Quarkus module's program serves Prometheus metrics: quarkus-micrometer-registry-prometheus at
     * quarkus.micrometer.export.prometheus.path (Quarkus' default /q/metrics); null when it serves none.
     */
    private static String quarkusMetricsPath(Path module) throws Exception {
        if (!quarkus(module) || !Files.readString(module.resolve("pom.xml"))
                .contains("<artifactId>quarkus-micrometer-registry-prometheus</artifactId>")) {
            return null;
        }
        return Files.readAllLines(module.resolve("src/main/resources/application.properties")).stream()
                .filter(l -> l.startsWith("quarkus.micrometer.export.prometheus.path="))
                .map(l -> l.substring(l.indexOf('=') + 1).strip()).findFirst().orElse("/q/metrics");
    }

    private static final String SCRAPE = "prometheus.io/scrape";

    @Test
    void shouldLetTheInferenceProviderMoveAnInputToAnotherSiteThroughTheTransferProvider() throws Exception {
        List<HasMetadata> resources = resources();
        Deployment inference = deployment(resources, "action-providers/inference");
        Deployment transfer = deployment(resources, "action-providers/transfer");
        Container c = inference.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env = new java.util.HashMap<>();
        for (EnvVar v : c.getEnv()) {
            env.put(v.getName(), v.getValue() != null ? v.getValue() : v.getValueFrom().getConfigMapKeyRef() != null
                    ? configMap(resources, v.getValueFrom().getConfigMapKeyRef().getName()).getData()
                            .get(v.getValueFrom().getConfigMapKeyRef().getKey())
                    : v.getValueFrom().getSecretKeyRef() != null ? "secret:" + v.getValueFrom().getSecretKeyRef().getKey()
                    : "field:" + v.getValueFrom().getFieldRef().getFieldPath());
        }
        // InferenceProviderMain: --transfer-url or CONTINUUM_TRANSFER_URL, the transfer action's URL
        java.net.URI url = java.net.URI.create(env.get("CONTINUUM_TRANSFER_URL"));
        io.fabric8.kubernetes.api.model.Service service = resources.stream().filter(io.fabric8.kubernetes.api.model.Service.class::isInstance)
                .map(io.fabric8.kubernetes.api.model.Service.class::cast)
                .filter(s -> s.getSpec().getSelector().equals(transfer.getSpec().getSelector().getMatchLabels()))
                .findFirst().orElseThrow();
        assertThat(url.getHost()).as("the transfer provider's Service").isEqualTo(service.getMetadata().getName());
        assertThat(service.getSpec().getPorts()).as("a port of that Service").anyMatch(p -> p.getPort() == url.getPort());
        List<String> transferArgs = transfer.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
        String basePath = transferArgs.contains("--base-path") ? transferArgs.get(transferArgs.indexOf("--base-path") + 1)
                : "/providers/transfer"; // TransferProviderMain's default
        assertThat(url.getPath()).as("the transfer action under the provider's base path").isEqualTo(basePath + "/transfer");
        // signed as the carrier the realm gives scope actions:transfer, the one the training provider uses too
        assertThat(env).containsEntry("CONTINUUM_TRANSFER_CLIENT_ID", "continuum-checkpoint-carrier")
                .containsEntry("CONTINUUM_TRANSFER_CLIENT_SECRET", "secret:checkpoint-carrier-secret")
                .containsKey("CONTINUUM_AUTH_ISSUER")
                // the sites' endpoints: site=endpoint pairs as --transfer-endpoints takes them (empty: named alike)
                .containsKey("CONTINUUM_TRANSFER_ENDPOINTS");
        assertThat(env.get("CONTINUUM_TRANSFER_ENDPOINTS")).matches("|[\\w.-]+=[\\w.-]+(,[\\w.-]+=[\\w.-]+)*");
        Container training = deployment(resources, "action-providers/training").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(training.getEnv()).as("one transfer URL for both providers").anyMatch(v -> v.getName().equals("CONTINUUM_TRANSFER_URL")
                && v.getValueFrom() != null && v.getValueFrom().getConfigMapKeyRef() != null
                && v.getValueFrom().getConfigMapKeyRef().getKey().equals("transfer-url"));
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

    @Test
    void shouldNameOnlyImagesThatContinuumImagesBuildsFromTheModuleEachDeploymentNames() throws Exception {
        // deploy/images/build.sh's table: one row per image, "name module layout port health args"
        Map<String, Path> built = new java.util.HashMap<>();
        Matcher row = Pattern.compile("(?m)^  \"([a-z-]+)\\s+([a-z/-]+)\\s").matcher(Files.readString(REPO.resolve("deploy/images/build.sh")));
        while (row.find()) {
            built.put("continuum/" + row.group(1), REPO.resolve(row.group(2)).normalize());
        }
        String version = Files.readString(REPO.resolve("pom.xml")).replaceFirst("(?s).*?<artifactId>continuum-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        JsonNode overlay = YAML.readTree(REPO.resolve("deploy/kubernetes/overlays/production/kustomization.yaml").toFile());
        Set<String> replaced = new TreeSet<>();
        overlay.path("images").forEach(i -> replaced.add(i.path("name").asText()));
        for (Map.Entry<Container, Path> e : continuumContainers().entrySet()) {
            Container c = e.getKey();
            assertThat(built).as(c.getName() + ": ./continuum images builds " + image(c) + " from its module")
                    .containsEntry(image(c), e.getValue());
            assertThat(c.getImage()).as(c.getName() + " is tagged with the project version").isEqualTo(image(c) + ":" + version);
            assertThat(replaced).as(c.getName() + ": the production overlay points it at the operator's registry").contains(image(c));
        }
    }

    /** Where the OpenTelemetry exporter settings of every tracing workload come from. */
    private static final String TELEMETRY = "continuum-telemetry";
    /** The keys of {@link #TELEMETRY}: standard OpenTelemetry names, which the providers take whole. */
    private static final Set<String> TRACE_SETTINGS = Set.of("OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG");
    /**
     * The OpenTelemetry SDK's environment variables (opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables)
     * that a provider's launcher hands its SDK (continuum-telemetry's OtlpTraces passes every OTEL_* on).
     */
    private static final Set<String> OTEL_STANDARD = Set.of("OTEL_SDK_DISABLED", "OTEL_SERVICE_NAME",
            "OTEL_RESOURCE_ATTRIBUTES", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG",
            "OTEL_TRACES_EXPORTER", "OTEL_BSP_SCHEDULE_DELAY");

    /** Whether a module's program exports spans: quarkus-opentelemetry, or a launcher that installs OtlpTraces. */
    private static boolean traces(Path module) throws Exception {
        if (quarkus(module)) {
            return Files.readString(module.resolve("pom.xml")).contains("<artifactId>quarkus-opentelemetry</artifactId>");
        }
        // ProviderLauncher.serve installs OtlpTraces first thing (provider-sdk)
        return sources(module).stream().anyMatch(t -> t.contains("ProviderLauncher.serve(") || t.contains("OtlpTraces.installGlobal("));
    }

    /**
     * A container's environment variables taken from {@link #TELEMETRY}, each with the key it comes from: every key
     * of an envFrom of it (unless an env entry of the same name wins), and each configMapKeyRef to it.
     */
    private static Map<String, String> telemetrySettings(Container c) {
        Map<String, String> found = new java.util.HashMap<>();
        for (EnvFromSource from : c.getEnvFrom()) {
            if (from.getConfigMapRef() != null && from.getConfigMapRef().getName().equals(TELEMETRY)) {
                TRACE_SETTINGS.forEach(k -> found.put(k, k));
            }
        }
        for (EnvVar v : c.getEnv()) {
            found.remove(v.getName());
            if (v.getValueFrom() != null && v.getValueFrom().getConfigMapKeyRef() != null
                    && v.getValueFrom().getConfigMapKeyRef().getName().equals(TELEMETRY)) {
                found.put(v.getName(), v.getValueFrom().getConfigMapKeyRef().getKey());
            }
        }
        return found;
    }

    /**
     * quarkus-opentelemetry's configuration as its jar describes it (META-INF/quarkus-config-doc): each key's
     * environment variable and the phase it is read in ({@code RUN_TIME}, or {@code BUILD_AND_RUN_TIME_FIXED}: fixed
     * when the engine is built). The jar is the engine's dependency in the local Maven repository (system property
     * continuum.quarkus-otel.jar, deploy's pom).
     */
    private static Map<String, String> quarkusOtelPhases() throws Exception {
        Path jar = Path.of(System.getProperty("continuum.quarkus-otel.jar", "missing"));
        assertThat(jar).as("quarkus-opentelemetry's jar (built with the engine)").isRegularFile();
        Map<String, String> phases = new java.util.HashMap<>();
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            JsonNode model = new ObjectMapper().readTree(zip.getInputStream(zip.getEntry(
                    "META-INF/quarkus-config-doc/quarkus-config-model.json")));
            for (JsonNode property : model.findParents("phase")) {
                String env = property.path("path").path("environmentVariable").asText("");
                if (env.startsWith("QUARKUS_OTEL_")) {
                    phases.put(env, property.path("phase").asText());
                }
            }
        }
        assertThat(phases).containsKeys("QUARKUS_OTEL_SDK_DISABLED", "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT");
        return phases;
    }

    private static ConfigMap configMap(List<HasMetadata> resources, String name) {
        return resources.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
                .filter(m -> m.getMetadata().getName().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no ConfigMap " + name));
    }

    private static Deployment deployment(List<HasMetadata> resources, String module) {
        return deployments(resources).stream().filter(d -> module.equals(d.getMetadata().getAnnotations().get(MODULE)))
                .findFirst().orElseThrow(() -> new AssertionError("no Deployment of " + module));
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

    private static List<Deployment> deployments(List<HasMetadata> resources) {
        return resources.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
    }

    /** Each container running a Continuum image, with the module its Deployment says it is built from. */
    private static Map<Container, Path> continuumContainers() throws Exception {
        Map<Container, Path> found = new java.util.LinkedHashMap<>();
        for (Deployment d : deployments(resources())) {
            for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
                if (!image(c).startsWith("continuum/")) {
                    continue;
                }
                Map<String, String> annotations = d.getMetadata().getAnnotations() == null ? Map.of() : d.getMetadata().getAnnotations();
                assertThat(annotations).as(d.getMetadata().getName() + " names its module").containsKey(MODULE);
                Path module = REPO.resolve(annotations.get(MODULE)).normalize();
                assertThat(module.resolve("pom.xml")).as(d.getMetadata().getName() + " module").exists();
                found.put(c, module);
            }
        }
        return found;
    }

    /** A Quarkus app (configuration keys, /q/health) rather than a plain main (CONTINUUM_* names, /health). */
    private static boolean quarkus(Path module) throws Exception {
        return Files.readString(module.resolve("pom.xml")).contains("<artifactId>quarkus-maven-plugin</artifactId>");
    }

    private static String artifactId(Path module) throws Exception {
        String pom = Files.readString(module.resolve("pom.xml"));
        Matcher own = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(pom.substring(Math.max(0, pom.indexOf("</parent>"))));
        return own.find() ? own.group(1) : "";
    }

    private static List<String> sources(Path module) throws Exception {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
            for (Path source : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                texts.add(Files.readString(source));
            }
        }
        return texts;
    }

    /** The prefixes under which a module's main asks PostgresActionStore.fromEnvironment for its database. */
    private static Set<String> storePrefixes(Path module) throws Exception {
        Set<String> prefixes = new TreeSet<>();
        Pattern call = Pattern.compile("PostgresActionStore\\.fromEnvironment\\([^,]+,\\s*\"(CONTINUUM_[A-Z_]+)\"");
        for (String text : sources(module)) {
            Matcher m = call.matcher(text);
            while (m.find()) {
                prefixes.add(m.group(1));
            }
        }
        return prefixes;
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

    /**
     * The environment variable names a plain Java program reads: string literals in CONTINUUM_... form in its
     * sources, and PREFIX + "_SUFFIX" for each prefix it hands PostgresActionStore (the suffixes that class reads).
     */
    private static Set<String> envLiterals(Path... modules) throws Exception {
        Set<String> names = new HashSet<>();
        Matcher suffix = Pattern.compile("prefix \\+ \"(_[A-Z_]+)\"").matcher(Files.readString(REPO.resolve(
                "action-providers/provider-sdk/src/main/java/dev/continuum/provider/server/PostgresActionStore.java")));
        List<String> suffixes = new ArrayList<>();
        while (suffix.find()) {
            suffixes.add(suffix.group(1));
        }
        for (String prefix : storePrefixes(modules[0])) {
            suffixes.forEach(s -> names.add(prefix + s));
        }
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
