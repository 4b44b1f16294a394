package dev.continuum.provider.training.backend.kubernetes;

import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run as one Kubernetes Job, built so that all workers start together or not at all: an Indexed Job with
 * completions = parallelism = world size, created suspended and labelled with its Kueue queue; Kueue (or the
 * backend) unsuspends it only when every worker fits. Each worker is one process with one GPU; its rank is its
 * completion index.
 */
final class KubernetesJobs {
    static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    static final String MANAGED_LABEL = "app.kubernetes.io/managed-by";
    static final String MANAGER = "continuum-training";
    static final String JOB_ID_LABEL = "continuum.dev/job-id";
    static final String STOP_ANNOTATION = "continuum.dev/stop-requested";
    static final String CANCEL_ANNOTATION = "continuum.dev/cancelled";
    static final String GPUS_ANNOTATION = "continuum.dev/gpus-per-worker";
    static final String INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";

    private KubernetesJobs() {
    }

    /** A DNS-1123 name for the run's Job: continuum-&lt;job&gt;-a&lt;attempt&gt;, at most 63 characters. */
    static String name(TrainingJobSpec spec) {
        String base = ("continuum-" + spec.jobId()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        String suffix = "-a" + spec.attempt();
        base = base.substring(0, Math.min(base.length(), 63 - suffix.length())).replaceAll("-+$", "");
        return base + suffix;
    }

    static Job build(TrainingJobSpec spec, Placement placement, KubernetesSettings settings) {
        int workers = placement.worldSize();
        int gpusPerWorker = placement.gpus() > 0 ? 1 : 0;
        Map<String, Quantity> limits = new HashMap<>();
        if (gpusPerWorker > 0) {
            limits.put(settings.gpuResource(), new Quantity(Integer.toString(gpusPerWorker)));
        }
        Map<String, Quantity> requests = new HashMap<>(limits);
        requests.put("cpu", new Quantity(Integer.toString(spec.cpusPerProcess())));
        if (spec.memoryMb() > 0) {
            requests.put("memory", new Quantity(spec.memoryMb() + "Mi"));
            limits.put("memory", new Quantity(spec.memoryMb() + "Mi"));
        }
        String image = spec.image().orElseThrow(() -> new IllegalArgumentException("the kubernetes backend runs container images"));
        return new JobBuilder()
                .withNewMetadata()
                    .withName(name(spec)).withNamespace(settings.namespace())
                    .addToLabels(QUEUE_LABEL, placement.partition())
                    .addToLabels(MANAGED_LABEL, MANAGER)
                    .addToLabels(JOB_ID_LABEL, label(spec.jobId()))
                    .addToAnnotations(GPUS_ANNOTATION, Integer.toString(gpusPerWorker))
                    .addToAnnotations("continuum.dev/priority", Integer.toString(spec.priority()))
                .endMetadata()
                .withNewSpec()
                    // all or nothing: created suspended, started whole by Kueue or the backend
                    .withSuspend(true)
                    .withCompletionMode("Indexed").withCompletions(workers).withParallelism(workers)
                    // the provider decides about new attempts (from the checkpoint); no pod retries here
                    .withBackoffLimit(0)
                    .withActiveDeadlineSeconds(Math.max(1, spec.timeLimit().toSeconds()))
                    .withNewPodFailurePolicy()
                        .addNewRule().withAction("FailJob").withNewOnExitCodes().withOperator("In")
                            .withValues(CheckpointProtocol.EXIT_CHECKPOINTED).endOnExitCodes().endRule()
                    .endPodFailurePolicy()
                    .withNewTemplate()
                        .withNewMetadata().addToLabels(JOB_ID_LABEL, label(spec.jobId())).endMetadata()
                        .withNewSpec()
                            .withRestartPolicy("Never")
                            // SIGTERM, then this long to checkpoint and exit before SIGKILL
                            .withTerminationGracePeriodSeconds(Math.max(1, spec.gracePeriod().toSeconds()))
                            .addNewContainer()
                                .withName("trainer").withImage(image)
                                .withCommand(spec.command().isEmpty() ? null : spec.command())
                                .withArgs(spec.args().isEmpty() ? null : spec.args())
                                .withWorkingDir(spec.workDir())
                                .withEnv(env(spec, workers))
                                .withNewResources().withRequests(requests).withLimits(limits).endResources()
                                .withVolumeMounts(settings.checkpointClaim().isPresent()
                                        ? List.of(new io.fabric8.kubernetes.api.model.VolumeMountBuilder()
                                                .withName("checkpoints").withMountPath(settings.checkpointMount()).build())
                                        : List.of())
                            .endContainer()
                            .withVolumes(settings.checkpointClaim().map(claim -> List.of(
                                    new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("checkpoints")
                                            .withNewPersistentVolumeClaim().withClaimName(claim).endPersistentVolumeClaim()
                                            .build())).orElse(List.of()))
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    private static List<EnvVar> env(TrainingJobSpec spec, int workers) {
        List<EnvVar> env = new ArrayList<>();
        CheckpointProtocol.environment(spec, workers, 0, 0).forEach((k, v) -> {
            if (!k.equals(CheckpointProtocol.ENV_RANK)) {
                env.add(new EnvVar(k, v, null));
            }
        });
        env.add(new EnvVarBuilder().withName(CheckpointProtocol.ENV_RANK).withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.annotations['" + INDEX_ANNOTATION + "']").endFieldRef().endValueFrom().build());
        return env;
    }

    /** A label value (≤ 63 characters of [A-Za-z0-9._-]). */
    static String label(String value) {
        String v = value.replaceAll("[^A-Za-z0-9._-]", "-");
        return v.substring(0, Math.min(63, v.length()));
    }
}
