package dev.continuum.provider.training.provider;

import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.training.backend.PartitionSubset;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.kubernetes.KubernetesBackend;
import dev.continuum.provider.training.backend.kubernetes.KubernetesSettings;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which backend the provider runs its jobs on ({@code --backend local|slurm|kubernetes}) with that backend's own
 * options, read from the command line. Every option error names the option.
 */
sealed interface BackendChoice {
    /** The options every backend may take, for the launcher's parser. */
    Set<String> OPTIONS = Set.of("--backend", "--gpu-slots", "--partitions", "--site", "--slurm-url", "--slurm-user",
            "--slurm-token-file", "--slurm-conf", "--slurm-attempts", "--kube-context", "--kube-namespace",
            "--kube-queues", "--kube-admission", "--kube-checkpoint-claim");

    /** Where a pod finds its own namespace: its service account's mount. */
    Path POD_NAMESPACE_FILE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    /** Starts the backend (Kubernetes: the client with its kubeconfig context). */
    TrainingBackend open();

    /** Child processes on this machine with {@code gpuSlots} slots (the machine's GPUs when it has some), as {@code site}. */
    record Local(int gpuSlots, String site) implements BackendChoice {
        @Override
        public TrainingBackend open() {
            return new LocalBackend(LocalBackendConfig.detect(gpuSlots).withSite(site));
        }
    }

    /** slurmrestd with a JWT read from {@code settings.tokenFile()}; only {@code partitions} when not empty. */
    record Slurm(SlurmSettings settings, List<String> partitions) implements BackendChoice {
        @Override
        public TrainingBackend open() {
            SlurmBackend slurm = new SlurmBackend(settings, Clock.systemUTC());
            return partitions.isEmpty() ? slurm : new PartitionSubset(slurm, partitions);
        }
    }

    /**
     * Jobs in {@code settings.namespace()} (the provider pod's own unless {@code --kube-namespace} names one) through
     * the kubeconfig's {@code context} (its current one when empty).
     */
    record Kubernetes(Optional<String> context, KubernetesSettings settings) implements BackendChoice {
        @Override
        public TrainingBackend open() {
            Config config = Config.autoConfigure(context.orElse(null));
            return new KubernetesBackend(new KubernetesClientBuilder().withConfig(config).build(), settings);
        }
    }

    static BackendChoice parse(Arguments a) {
        return parse(a, POD_NAMESPACE_FILE);
    }

    /** As {@link #parse(Arguments)}, the pod's namespace read from {@code podNamespaceFile}. */
    static BackendChoice parse(Arguments a, Path podNamespaceFile) {
        String backend = a.text("--backend", "local");
        return switch (backend) {
            case "local" -> new Local(a.number("--gpu-slots", 2, 0, 1024), a.text("--site", "local"));
            case "slurm" -> {
                URI url = a.text("--slurm-url").map(URI::create)
                        .orElseThrow(() -> new IllegalArgumentException("--slurm-url is required with --backend slurm (slurmrestd, e.g. http://head:6820)"));
                Path token = a.path("--slurm-token-file")
                        .orElseThrow(() -> new IllegalArgumentException("--slurm-token-file is required with --backend slurm (a file holding the JWT from scontrol token)"));
                String user = a.text("--slurm-user").or(() -> Optional.ofNullable(System.getenv("USER")))
                        .orElseThrow(() -> new IllegalArgumentException("--slurm-user is required with --backend slurm"));
                SlurmSettings s = SlurmSettings.of(url, user, token, a.text("--site", "slurm"));
                s = s.withRetries(a.number("--slurm-attempts", s.attempts(), 1, 100), s.backoff());
                s = a.path("--slurm-conf").map(s::withSlurmConf).orElse(s);
                yield new Slurm(s, list(a, "--partitions"));
            }
            case "kubernetes" -> {
                List<String> queues = list(a, "--kube-queues");
                if (queues.isEmpty()) {
                    throw new IllegalArgumentException("--kube-queues is required with --backend kubernetes (the Kueue LocalQueues jobs may use)");
                }
                String admission = a.text("--kube-admission", "kueue");
                if (!admission.equals("kueue") && !admission.equals("backend")) {
                    throw new IllegalArgumentException("--kube-admission must be kueue or backend, not " + admission);
                }
                KubernetesSettings k = KubernetesSettings.of(
                        a.text("--kube-namespace").orElseGet(() -> defaultNamespace(podNamespaceFile)), a.text("--site", "kubernetes"),
                        queues, KubernetesSettings.Admission.valueOf(admission.toUpperCase(java.util.Locale.ROOT)));
                k = new KubernetesSettings(k.namespace(), k.site(), k.queues(), k.admission(), k.gpuResource(),
                        a.text("--kube-checkpoint-claim"), k.checkpointMount());
                yield new Kubernetes(a.text("--kube-context"), k);
            }
            default -> throw new IllegalArgumentException("--backend must be local, slurm or kubernetes, not " + backend);
        };
    }

    /**
     * The namespace Jobs go to without {@code --kube-namespace}: the provider's own when it runs in a pod (so the
     * manifests need not repeat the namespace they are applied in), else Kubernetes' {@code default}.
     */
    static String defaultNamespace(Path podNamespaceFile) {
        try {
            String own = Files.readString(podNamespaceFile).strip();
            return own.isEmpty() ? "default" : own;
        } catch (IOException | SecurityException notInAPod) {
            return "default";
        }
    }

    private static List<String> list(Arguments a, String name) {
        return a.text(name).map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList())
                .orElse(List.of());
    }
}
