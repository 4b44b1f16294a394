package dev.continuum.provider.training.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes backend against fabric8's mock API server in CRUD mode. The mock stores objects but runs no
 * controllers: the test plays the Job controller and the kubelet (Job status, pods and their exit codes).
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesBackendTest {
    static KubernetesClient client;
    KubernetesBackend kueue;
    KubernetesBackend gang;

    @BeforeEach
    void cluster() {
        client.batch().v1().jobs().inNamespace("training").delete();
        client.nodes().delete();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("gpu-node-1").endMetadata()
                .withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity("4")).endStatus().build()).create();
        kueue = new KubernetesBackend(client, KubernetesSettings.of("training", "k8s", List.of("gpu-queue", "spot-queue"),
                KubernetesSettings.Admission.KUEUE));
        gang = new KubernetesBackend(client, KubernetesSettings.of("training", "k8s", List.of("gpu-queue"),
                KubernetesSettings.Admission.BACKEND));
    }

    @Test
    void aRunIsOneSuspendedIndexedJobInItsKueueQueueWithTheProtocol() throws Exception {
        BackendJobHandle handle = kueue.submit(spec("Resnet_50", 1), Placement.request("k8s", "gpu-queue", 2));

        Job job = job(handle);
        assertThat(job.getMetadata().getName()).isEqualTo("continuum-resnet-50-a1");
        assertThat(job.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/queue-name", "gpu-queue");
        assertThat(job.getSpec().getSuspend()).isTrue();
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(2);
        assertThat(job.getSpec().getParallelism()).isEqualTo(2);
        assertThat(job.getSpec().getBackoffLimit()).isZero();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(3600);
        assertThat(job.getSpec().getPodFailurePolicy().getRules().getFirst().getOnExitCodes().getValues()).containsExactly(85);
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(30);
        var container = pod.getContainers().getFirst();
        assertThat(container.getImage()).isEqualTo("registry.example/trainer:1");
        assertThat(container.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("1"));
        assertThat(container.getEnv()).extracting(EnvVar::getName)
                .contains("CONTINUUM_CHECKPOINT_DIR", "CONTINUUM_WORLD_SIZE", "CONTINUUM_RANK", "CONTINUUM_ATTEMPT");
        assertThat(container.getEnv()).filteredOn(e -> e.getName().equals("CONTINUUM_WORLD_SIZE")).extracting(EnvVar::getValue).containsExactly("2");
        assertThat(container.getEnv()).filteredOn(e -> e.getName().equals("CONTINUUM_RANK")).singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath()).contains("job-completion-index"));

        assertThat(kueue.status(handle)).isInstanceOfSatisfying(BackendJobStatus.Pending.class,
                p -> assertThat(p.reason()).contains("Kueue", "all 2 workers", "gpu-queue"));
        // Kueue admits by unsuspending the whole Job
        client.batch().v1().jobs().inNamespace("training").withName(job.getMetadata().getName()).edit(j -> {
            j.getSpec().setSuspend(false);
            return j;
        });
        assertThat(kueue.status(handle)).isInstanceOf(BackendJobStatus.Running.class);
        assertThat(kueue.submit(spec("Resnet_50", 1), Placement.request("k8s", "gpu-queue", 2))).isEqualTo(handle);
    }

    @Test
    void workersStartAllTogetherOrNotAtAll() throws Exception {
        BackendJobHandle three = gang.submit(spec("three", 1), Placement.request("k8s", "gpu-queue", 3));
        BackendJobHandle two = gang.submit(spec("two", 1), Placement.request("k8s", "gpu-queue", 2));

        assertThat(gang.status(three)).isInstanceOf(BackendJobStatus.Running.class);
        // one GPU is free, two workers wait: the Job stays suspended whole, none of its workers starts
        assertThat(gang.status(two)).isInstanceOfSatisfying(BackendJobStatus.Pending.class,
                p -> assertThat(p.reason()).contains("all 2 workers"));
        assertThat(job(two).getSpec().getSuspend()).isTrue();

        finish(three, "Complete");
        assertThat(gang.status(three)).isInstanceOf(BackendJobStatus.Succeeded.class);
        assertThat(gang.status(two)).isInstanceOf(BackendJobStatus.Running.class);
    }

    @Test
    void checkpointAndStopSuspendsTheJobSoPodsGetSigtermAndTheGracePeriod() throws Exception {
        BackendJobHandle handle = gang.submit(spec("preempted", 1), Placement.request("k8s", "gpu-queue", 1));
        assertThat(gang.status(handle)).isInstanceOf(BackendJobStatus.Running.class);
        setActive(handle, 1);

        gang.requestCheckpoint(handle, true);
        assertThat(job(handle).getSpec().getSuspend()).isTrue();
        assertThat(gang.status(handle)).isInstanceOf(BackendJobStatus.Stopping.class);
        setActive(handle, 0);
        assertThat(gang.status(handle)).isInstanceOf(BackendJobStatus.Checkpointed.class);

        // the next attempt is a new Job, admitted because the stopped one holds no GPUs any more
        BackendJobHandle next = gang.submit(spec("preempted", 1).nextAttempt(), Placement.request("k8s", "gpu-queue", 4));
        assertThat(next.value()).endsWith("continuum-preempted-a2");
        assertThat(gang.status(next)).isInstanceOf(BackendJobStatus.Running.class);
    }

    @Test
    void exitCodesTellACheckpointedStopFromAFailure() throws Exception {
        BackendJobHandle saved = gang.submit(spec("saved", 1), Placement.request("k8s", "gpu-queue", 1));
        finish(saved, "Failed");
        workerExited(saved, 85);
        assertThat(gang.status(saved)).isInstanceOf(BackendJobStatus.Checkpointed.class);

        BackendJobHandle broken = gang.submit(spec("broken", 1), Placement.request("k8s", "gpu-queue", 1));
        finish(broken, "Failed");
        workerExited(broken, 3);
        assertThat(gang.status(broken)).isInstanceOfSatisfying(BackendJobStatus.Failed.class, f -> assertThat(f.exitCode()).isEqualTo(3));
    }

    @Test
    void cancelStopsTheRunAndStatusSaysCancelled() throws Exception {
        BackendJobHandle handle = gang.submit(spec("unwanted", 1), Placement.request("k8s", "gpu-queue", 1));
        gang.cancel(handle);
        gang.cancel(handle);
        assertThat(job(handle).getSpec().getSuspend()).isTrue();
        assertThat(gang.status(handle)).isInstanceOf(BackendJobStatus.Cancelled.class);
    }

    @Test
    void badRequestsAreRejectedNamingTheFieldAndAnUnreachableApiServerIsUnavailable() {
        assertThatThrownBy(() -> kueue.submit(spec("x", 1), Placement.request("k8s", "no-queue", 1)))
                .isInstanceOfSatisfying(BackendException.Rejected.class, e -> assertThat(e.field()).isEqualTo("partition"));
        TrainingJobSpec noImage = new TrainingJobSpec("y", 1, List.of("train.sh"), Optional.empty(), List.of(), Map.of(),
                Optional.empty(), 1, 0, Duration.ofHours(1), Duration.ofSeconds(30), "/work", "/checkpoints/y", "/out/y", 0);
        assertThatThrownBy(() -> kueue.submit(noImage, Placement.request("k8s", "gpu-queue", 1)))
                .isInstanceOfSatisfying(BackendException.Rejected.class, e -> assertThat(e.field()).isEqualTo("image"));

        KubernetesClient nowhere = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:9").withRequestRetryBackoffLimit(0).build()).build();
        try (KubernetesBackend down = new KubernetesBackend(nowhere, KubernetesSettings.of("training", "k8s", List.of("gpu-queue"),
                KubernetesSettings.Admission.KUEUE))) {
            assertThatThrownBy(() -> down.submit(spec("z", 1), Placement.request("k8s", "gpu-queue", 1)))
                    .isInstanceOf(BackendException.Unavailable.class)
                    .hasMessageContaining("Kubernetes API server is unavailable");
        }
    }

    @Test
    void inventoryOffersTheQueuesOverTheGpuNodes() throws Exception {
        var inventory = kueue.inventory();
        assertThat(inventory.partitions()).extracting(p -> p.name()).containsExactly("gpu-queue", "spot-queue");
        assertThat(inventory.defaultPartition().orElseThrow().totalGpus()).isEqualTo(4);
    }

    private static TrainingJobSpec spec(String id, int attempt) {
        return new TrainingJobSpec(id, attempt, List.of(), Optional.of("registry.example/trainer:1"), List.of("--epochs", "3"),
                Map.of(), Optional.empty(), 1, 0, Duration.ofHours(1), Duration.ofSeconds(30), "/work",
                "/checkpoints/" + id, "/out/" + id, 0);
    }

    private static Job job(BackendJobHandle handle) {
        return client.batch().v1().jobs().inNamespace("training").withName(handle.value().split("/")[1]).get();
    }

    private static void setActive(BackendJobHandle handle, int active) {
        client.batch().v1().jobs().inNamespace("training").withName(handle.value().split("/")[1])
                .editStatus(j -> {
                    j.setStatus(new JobStatusBuilder().withActive(active).build());
                    return j;
                });
    }

    private static void finish(BackendJobHandle handle, String condition) {
        client.batch().v1().jobs().inNamespace("training").withName(handle.value().split("/")[1])
                .editStatus(j -> {
                    j.setStatus(new JobStatusBuilder().withActive(0).withConditions(new JobConditionBuilder()
                            .withType(condition).withStatus("True").withReason(condition.equals("Failed") ? "PodFailurePolicy" : null)
                            .build()).build());
                    return j;
                });
    }

    private static void workerExited(BackendJobHandle handle, int code) {
        String name = handle.value().split("/")[1];
        client.pods().inNamespace("training").resource(new PodBuilder().withNewMetadata().withName(name + "-0")
                .addToLabels("job-name", name).endMetadata().withNewSpec().withNodeName("gpu-node-1").endSpec()
                .withNewStatus().addNewContainerStatus().withName("trainer").withNewState().withNewTerminated()
                .withExitCode(code).endTerminated().endState().endContainerStatus().endStatus().build()).create();
    }
}
