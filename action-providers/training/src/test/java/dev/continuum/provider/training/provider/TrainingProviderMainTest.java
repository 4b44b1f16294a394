package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.training.backend.kubernetes.KubernetesSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line an operator types: which backend, with its settings, and errors naming the option. */
class TrainingProviderMainTest {

    @Test
    void theLocalBackendIsTheDefault() {
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--gpu-slots", "3"});
        assertThat(s.backend()).isEqualTo(new BackendChoice.Local(3, "local"));
    }

    @Test
    void theMovePolicysCostsComeFromTheirFlagsAndDefaultToAMinuteFiveMinutesAndOneGigabit() {
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--policy",
                "priority+move", "--move-restart-seconds", "5", "--move-min-residence-seconds", "30",
                "--move-link-mbps", "80"});
        assertThat(s.moveCosts()).isEqualTo(new MovePolicy.Costs(10_000_000, 5, 30, 2));
        assertThat(TrainingProviderMain.parse(new String[] {"--work-dir", "/w"}).moveCosts())
                .isEqualTo(MovePolicy.Costs.DEFAULT);
        assertThatThrownBy(() -> TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--move-link-mbps", "0"}))
                .hasMessageContaining("--move-link-mbps");
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
    void shouldRunKubernetesJobsInTheProvidersOwnNamespaceWhenNoneIsGiven(@TempDir Path pod) throws Exception {
        Path namespaceFile = Files.writeString(pod.resolve("namespace"), "lab-training\n");
        String[] noNamespace = {"--backend", "kubernetes", "--kube-queues", "gpu"};

        assertThat(kubernetes(noNamespace, namespaceFile).settings().namespace()).as("in a pod").isEqualTo("lab-training");
        assertThat(kubernetes(noNamespace, pod.resolve("absent")).settings().namespace()).as("outside a cluster")
                .isEqualTo("default");
        assertThat(kubernetes(new String[] {"--backend", "kubernetes", "--kube-queues", "gpu", "--kube-namespace", "ml"},
                namespaceFile).settings().namespace()).as("named on the command line").isEqualTo("ml");
    }

    private static BackendChoice.Kubernetes kubernetes(String[] args, Path podNamespaceFile) {
        return (BackendChoice.Kubernetes) BackendChoice.parse(
                ProviderLauncher.Arguments.parse(args, BackendChoice.OPTIONS, Set.of()), podNamespaceFile);
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

    @Test
    void aSitesFileGivesEachSiteItsBackendDirectoryAndEndpointAndTheHomeSiteBoundsTheLocations(
            @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("sites.json"), """
                {"sites": [
                  {"name": "dc-a", "root": "/srv/a", "transfer_endpoint": "ep-a", "backend": "local", "gpu_slots": 3},
                  {"name": "dc-b", "root": "/srv/b", "transfer_endpoint": "ep-b", "backend": "slurm",
                   "slurm_url": "http://head:6820", "slurm_token_file": "/etc/jwt", "slurm_user": "train",
                   "partitions": ["gpu-a", "gpu-b"]}]}""");
        TrainingProviderMain.Settings s = TrainingProviderMain.parse(new String[] {"--work-dir", "/w", "--sites",
                file.toString(), "--transfer-url", "http://dc:8093/providers/transfer/transfer"});
        List<SitesFile.Site> sites = s.sites().orElseThrow().sites();
        assertThat(sites.get(0)).isEqualTo(new SitesFile.Site("dc-a", Path.of("/srv/a"), Optional.of("ep-a"),
                new BackendChoice.Local(3, "dc-a")));
        BackendChoice.Slurm slurm = (BackendChoice.Slurm) sites.get(1).backend();
        assertThat(slurm.settings().site()).isEqualTo("dc-b");
        assertThat(slurm.partitions()).containsExactly("gpu-a", "gpu-b");
        assertThat(s.allowedRoots()).isEqualTo("/srv/a");
        assertThat(s.transferUrl()).isEqualTo("http://dc:8093/providers/transfer/transfer");
    }

    @Test
    void aBadSitesFileNamesTheSiteAndTheField(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> sites(dir, "{\"sites\": []}")).hasMessageContaining("\"sites\" must be a non-empty array");
        assertThatThrownBy(() -> sites(dir, "{\"sites\": [{\"name\": \"a/b\", \"root\": \"/x\"}]}"))
                .hasMessageContaining("sites[0].name");
        assertThatThrownBy(() -> sites(dir, "{\"sites\": [{\"name\": \"a\", \"root\": \"rel\"}]}"))
                .hasMessageContaining("site a needs \"root\", an absolute directory");
        assertThatThrownBy(() -> sites(dir, "{\"sites\": [{\"name\": \"a\", \"root\": \"/x\"},"
                + " {\"name\": \"b\", \"root\": \"/x/y\"}]}")).hasMessageContaining("roots of sites a and b overlap");
        assertThatThrownBy(() -> sites(dir, "{\"sites\": [{\"name\": \"a\", \"root\": \"/x\", \"backend\": \"slurm\"}]}"))
                .hasMessageContaining("site a: --slurm-url is required");
        assertThatThrownBy(() -> sites(dir, "{\"sites\": [{\"name\": \"a\", \"root\": \"/x\", \"gpu_count\": 2}]}"))
                .hasMessageContaining("site a: unknown option --gpu-count");
    }

    private static SitesFile sites(Path dir, String json) throws Exception {
        return SitesFile.read(java.nio.file.Files.writeString(dir.resolve("s.json"), json));
    }
}
