package dev.continuum.provider.training.backend.kubernetes;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendInventory.PartitionInventory;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ScalableResource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Training runs as Kubernetes Jobs through the fabric8 client: one Indexed Job per run, one pod per GPU rank,
 * Kueue's queue label, created suspended so that all workers start together or none does (Kueue admits it, or
 * with {@link KubernetesSettings.Admission#BACKEND} this backend unsuspends it once every worker fits in the
 * free GPUs). Checkpoint-and-stop suspends the Job: Kubernetes sends each pod SIGTERM and gives it the grace
 * period (terminationGracePeriodSeconds), as the checkpoint protocol says for Kubernetes. Tested only against
 * fabric8's mock API server (docs/training.md).
 */
public final class KubernetesBackend implements TrainingBackend {
    private final KubernetesClient client;
    private final KubernetesSettings settings;

    public KubernetesBackend(KubernetesClient client, KubernetesSettings settings) {
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public String name() {
        return "kubernetes";
    }

    @Override
    public BackendInventory inventory() throws BackendException {
        List<Node> nodes = call("list nodes", () -> client.nodes().list().getItems());
        List<String> names = nodes.stream().map(n -> n.getMetadata().getName()).toList();
        int gpusPerNode = nodes.stream().mapToInt(this::gpus).max().orElse(0);
        List<PartitionInventory> queues = settings.queues().stream()
                .map(q -> new PartitionInventory(q, q.equals(settings.queues().getFirst()), names, gpusPerNode,
                        Optional.empty(), 0, 0))
                .toList();
        return new BackendInventory(settings.site(), queues);
    }

    @Override
    public synchronized BackendJobHandle submit(TrainingJobSpec spec, Placement placement) throws BackendException {
        if (spec.image().isEmpty()) {
            throw new BackendException.Rejected("image", "the kubernetes backend runs a container image");
        }
        if (!settings.queues().contains(placement.partition())) {
            throw new BackendException.Rejected("partition", "unknown queue " + placement.partition() + "; known: " + settings.queues());
        }
        Job job = KubernetesJobs.build(spec, placement, settings);
        String name = job.getMetadata().getName();
        // a retried submit finds the Job it created before: the name is the run's
        call("create Job " + name, () -> {
            var resource = client.batch().v1().jobs().inNamespace(settings.namespace()).resource(job);
            return resource.get() != null ? null : resource.create();
        });
        admitWhatFits();
        return new BackendJobHandle(name(), settings.namespace() + "/" + name);
    }

    @Override
    public synchronized BackendJobStatus status(BackendJobHandle handle) throws BackendException {
        admitWhatFits();
        Job job = call("read Job " + handle.value(), () -> jobResource(handle).get());
        if (job == null) {
            return new BackendJobStatus.Lost("no Job " + handle.value() + " in the cluster");
        }
        Map<String, String> annotations = annotations(job);
        boolean stopRequested = annotations.containsKey(KubernetesJobs.STOP_ANNOTATION);
        int active = job.getStatus() == null || job.getStatus().getActive() == null ? 0 : job.getStatus().getActive();
        if (annotations.containsKey(KubernetesJobs.CANCEL_ANNOTATION)) {
            return new BackendJobStatus.Cancelled();
        }
        if (condition(job, "Complete")) {
            return new BackendJobStatus.Succeeded(Optional.empty());
        }
        if (condition(job, "Failed")) {
            return failed(job);
        }
        if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
            if (stopRequested) {
                // suspended on our request: pods got SIGTERM and the grace period; once gone, the run is resumable
                return active > 0 ? new BackendJobStatus.Stopping(placement(job), Optional.empty())
                        : new BackendJobStatus.Checkpointed(Optional.empty());
            }
            return new BackendJobStatus.Pending(settings.admission() == KubernetesSettings.Admission.KUEUE
                    ? "waiting for Kueue to admit all " + workers(job) + " workers in queue " + queue(job)
                    : "waiting until all " + workers(job) + " workers fit in the free GPUs");
        }
        return new BackendJobStatus.Running(placement(job), Optional.empty());
    }

    @Override
    public synchronized void requestCheckpoint(BackendJobHandle handle, boolean stopAfter) throws BackendException {
        Job job = call("read Job " + handle.value(), () -> jobResource(handle).get());
        if (job == null || Boolean.TRUE.equals(job.getSpec().getSuspend()) || condition(job, "Complete") || condition(job, "Failed")) {
            return;
        }
        if (stopAfter) {
            call("suspend Job " + handle.value(), () -> jobResource(handle).edit(j -> {
                j.getMetadata().getAnnotations().put(KubernetesJobs.STOP_ANNOTATION, "true");
                j.getSpec().setSuspend(true);
                return j;
            }));
            return;
        }
        // a checkpoint without stopping: SIGUSR1 to each worker's process 1 (exec; never tried on a live cluster)
        for (Pod pod : pods(job)) {
            call("signal pod " + pod.getMetadata().getName(), () -> client.pods().inNamespace(settings.namespace())
                    .withName(pod.getMetadata().getName()).inContainer("trainer").exec("kill", "-" + CheckpointProtocol.SIGNAL_LOCAL, "1"))
                    .close();
        }
    }

    @Override
    public synchronized void cancel(BackendJobHandle handle) throws BackendException {
        // suspend (pods get SIGTERM, then SIGKILL after the grace period) and mark: the Job stays as the record
        // that it was cancelled, so status answers Cancelled; deleting it is the operator's clean-up
        call("cancel Job " + handle.value(), () -> {
            Job job = jobResource(handle).get();
            if (job != null) {
                jobResource(handle).edit(j -> {
                    j.getMetadata().getAnnotations().put(KubernetesJobs.CANCEL_ANNOTATION, "true");
                    j.getSpec().setSuspend(true);
                    return j;
                });
            }
            return null;
        });
    }

    @Override
    public void close() {
        client.close();
    }

    /**
     * Gang admission when no Kueue runs: unsuspends waiting Jobs, oldest first, whose workers all fit in the GPUs
     * not yet taken by running Jobs. A Job that does not fit whole stays suspended (no partial start).
     */
    private void admitWhatFits() throws BackendException {
        if (settings.admission() != KubernetesSettings.Admission.BACKEND) {
            return;
        }
        int capacity = call("list nodes", () -> client.nodes().list().getItems()).stream().mapToInt(this::gpus).sum();
        List<Job> ours = call("list Jobs", () -> client.batch().v1().jobs().inNamespace(settings.namespace())
                .withLabel(KubernetesJobs.MANAGED_LABEL, KubernetesJobs.MANAGER).list().getItems());
        int used = ours.stream().filter(j -> !Boolean.TRUE.equals(j.getSpec().getSuspend()) && !finished(j))
                .mapToInt(KubernetesBackend::gpusWanted).sum();
        List<Job> waiting = ours.stream()
                .filter(j -> Boolean.TRUE.equals(j.getSpec().getSuspend()) && !finished(j)
                        && !annotations(j).containsKey(KubernetesJobs.STOP_ANNOTATION)
                        && !annotations(j).containsKey(KubernetesJobs.CANCEL_ANNOTATION))
                .sorted(java.util.Comparator.comparing(j -> String.valueOf(j.getMetadata().getCreationTimestamp())))
                .toList();
        for (Job job : waiting) {
            int wanted = gpusWanted(job);
            if (used + wanted > capacity) {
                break; // first come, first served: a later, smaller Job does not jump the queue
            }
            used += wanted;
            String name = job.getMetadata().getName();
            call("admit Job " + name, () -> client.batch().v1().jobs().inNamespace(settings.namespace()).withName(name)
                    .edit(j -> {
                        j.getSpec().setSuspend(false);
                        return j;
                    }));
        }
    }

    private BackendJobStatus failed(Job job) throws BackendException {
        for (Pod pod : pods(job)) {
            for (ContainerStatus cs : pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                    ? List.<ContainerStatus>of() : pod.getStatus().getContainerStatuses()) {
                ContainerStateTerminated t = cs.getState() == null ? null : cs.getState().getTerminated();
                if (t != null && t.getExitCode() != null && t.getExitCode() == CheckpointProtocol.EXIT_CHECKPOINTED) {
                    return new BackendJobStatus.Checkpointed(Optional.empty());
                }
                if (t != null && t.getExitCode() != null && t.getExitCode() != 0) {
                    return new BackendJobStatus.Failed(t.getExitCode(), "worker " + pod.getMetadata().getName()
                            + " exited with " + t.getExitCode() + (t.getReason() == null ? "" : " (" + t.getReason() + ")"), Optional.empty());
                }
            }
        }
        String reason = job.getStatus().getConditions().stream().filter(c -> "Failed".equals(c.getType()))
                .map(JobCondition::getReason).filter(Objects::nonNull).findFirst().orElse("Failed");
        if ("DeadlineExceeded".equals(reason)) {
            return new BackendJobStatus.Killed("the time limit (activeDeadlineSeconds)", Optional.empty());
        }
        return new BackendJobStatus.Failed(1, "the Job failed: " + reason, Optional.empty());
    }

    private Placement placement(Job job) throws BackendException {
        List<String> nodes = pods(job).stream().map(p -> p.getSpec() == null ? null : p.getSpec().getNodeName())
                .filter(Objects::nonNull).distinct().toList();
        return new Placement(settings.site(), queue(job), gpusWanted(job), nodes, List.of());
    }

    private List<Pod> pods(Job job) throws BackendException {
        return call("list pods of " + job.getMetadata().getName(), () -> client.pods().inNamespace(settings.namespace())
                .withLabel("job-name", job.getMetadata().getName()).list().getItems());
    }

    private ScalableResource<Job> jobResource(BackendJobHandle handle) {
        String[] parts = handle.value().split("/", 2);
        return client.batch().v1().jobs().inNamespace(parts[0]).withName(parts[1]);
    }

    private int gpus(Node node) {
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Quantity q = allocatable == null ? null : allocatable.get(settings.gpuResource());
        return q == null ? 0 : q.getNumericalAmount().intValue();
    }

    private static int gpusWanted(Job job) {
        int perWorker = Integer.parseInt(annotations(job).getOrDefault(KubernetesJobs.GPUS_ANNOTATION, "0"));
        return perWorker * workers(job);
    }

    private static int workers(Job job) {
        return job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
    }

    private static String queue(Job job) {
        return job.getMetadata().getLabels() == null ? "" : job.getMetadata().getLabels().getOrDefault(KubernetesJobs.QUEUE_LABEL, "");
    }

    private static boolean finished(Job job) {
        return condition(job, "Complete") || condition(job, "Failed");
    }

    private static boolean condition(Job job, String type) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions().stream()
                .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Map<String, String> annotations(Job job) {
        return job.getMetadata().getAnnotations() == null ? Map.of() : job.getMetadata().getAnnotations();
    }

    private static boolean causedByIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** An API call; an unreachable API server or a 5xx becomes Unavailable (retry later), a refusal Rejected. */
    private <T> T call(String what, Supplier<T> call) throws BackendException {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() <= 0 || e.getCode() >= 500 || causedByIo(e)) {
                throw new BackendException.Unavailable("the Kubernetes API server is unavailable (" + what + "): "
                        + e.getMessage() + "; the job is kept and retried", e);
            }
            if (e.getCode() == 403) {
                throw new BackendException.Unavailable("the Kubernetes API refused to " + what + " (403): check the backend's service account", e);
            }
            throw new BackendException.Rejected("body", "Kubernetes refused to " + what + ": " + e.getMessage());
        }
    }
}
