package dev.continuum.provider.training.backend.kubernetes;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how the Kubernetes backend runs jobs.
 *
 * @param namespace       the namespace of the Jobs
 * @param site            the site name reported in placements
 * @param queues          the Kueue LocalQueues a job may name as its partition (the first is the default)
 * @param admission       who starts a suspended Job: {@link Admission#KUEUE} (Kueue, installed in the cluster) or
 *                        {@link Admission#BACKEND} (this backend, when every worker fits in the free GPUs)
 * @param gpuResource     the extended resource a worker asks for (nvidia.com/gpu)
 * @param checkpointClaim a PersistentVolumeClaim mounted at {@code checkpointMount} in every worker, so that a
 *                        checkpoint survives its pod; empty when the image or node provides the path
 */
public record KubernetesSettings(String namespace, String site, List<String> queues, Admission admission,
                                 String gpuResource, Optional<String> checkpointClaim, String checkpointMount) {
    public enum Admission { KUEUE, BACKEND }

    public KubernetesSettings {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(site, "site");
        queues = List.copyOf(queues);
        if (queues.isEmpty()) {
            throw new IllegalArgumentException("at least one queue");
        }
        Objects.requireNonNull(admission, "admission");
        checkpointClaim = checkpointClaim == null ? Optional.empty() : checkpointClaim;
    }

    public static KubernetesSettings of(String namespace, String site, List<String> queues, Admission admission) {
        return new KubernetesSettings(namespace, site, queues, admission, "nvidia.com/gpu", Optional.empty(), "/checkpoints");
    }
}
