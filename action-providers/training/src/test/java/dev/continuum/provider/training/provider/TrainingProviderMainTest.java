package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.training.backend.kubernetes.KubernetesSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The command line an operator types: which backend, with its settings, and errors naming the option. */
class TrainingProviderMainTest {

    @Test
    void theLocalBackendIsTheDefault() {
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--gpu-slots", "3"});
        assertThat(s.backend()).isEqualTo(new BackendChoice.Local(3));
    }

    @Test
    void slurmTakesTheRestUrlTheTokenFileAndThePartitions() {
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "slurm",
                "--slurm-url", "http://head:6820", "--slurm-token-file", "/etc/jwt", "--slurm-user", "train",
                "--partitions", "gpu-a, gpu-b", "--site", "hpc", "--slurm-conf", "/etc/slurm/slurm.conf"});
        BackendChoice.Slurm slurm = (BackendChoice.Slurm) s.backend();
        assertThat(slurm.settings().restUrl()).isEqualTo(URI.create("http://head:6820"));
        assertThat(slurm.settings().tokenFile()).isEqualTo(Path.of("/etc/jwt"));
        assertThat(slurm.settings().user()).isEqualTo("train");
        assertThat(slurm.settings().site()).isEqualTo("hpc");
        assertThat(slurm.settings().slurmConf()).contains(Path.of("/etc/slurm/slurm.conf"));
        assertThat(slurm.partitions()).containsExactly("gpu-a", "gpu-b");
    }

    @Test
    void kubernetesTakesContextNamespaceAndQueues() {
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend",
                "kubernetes", "--kube-context", "lab", "--kube-namespace", "training", "--kube-queues", "gpu-queue,spot",
                "--kube-admission", "backend", "--kube-checkpoint-claim", "ckpts"});
        BackendChoice.Kubernetes k = (BackendChoice.Kubernetes) s.backend();
        assertThat(k.context()).contains("lab");
        assertThat(k.settings().namespace()).isEqualTo("training");
        assertThat(k.settings().queues()).isEqualTo(List.of("gpu-queue", "spot"));
        assertThat(k.settings().admission()).isEqualTo(KubernetesSettings.Admission.BACKEND);
        assertThat(k.settings().checkpointClaim()).isEqualTo(Optional.of("ckpts"));
    }

    @Test
    void aMissingOrWrongBackendSettingIsNamed() {
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "pbs"}))
                .hasMessageContaining("--backend must be local, slurm or kubernetes, not pbs");
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "slurm",
                "--slurm-token-file", "/t"})).hasMessageContaining("--slurm-url is required");
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "slurm",
                "--slurm-url", "http://h:1"})).hasMessageContaining("--slurm-token-file is required");
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "kubernetes"}))
                .hasMessageContaining("--kube-queues is required");
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--backend", "kubernetes",
                "--kube-queues", "q", "--kube-admission", "maybe"})).hasMessageContaining("--kube-admission must be kueue or backend");
    }
}
