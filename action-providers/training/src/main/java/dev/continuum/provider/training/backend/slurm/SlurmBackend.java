package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendInventory.PartitionInventory;
import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import dev.continuum.slurm.SlurmRest;
import dev.continuum.slurm.rest.ApiException;
import dev.continuum.slurm.rest.api.SlurmApi;
import dev.continuum.slurm.rest.model.V0038JobProperties;
import dev.continuum.slurm.rest.model.V0038JobResponseProperties;
import dev.continuum.slurm.rest.model.V0038JobSubmission;
import dev.continuum.slurm.rest.model.V0038Node;
import dev.continuum.slurm.rest.model.V0038Partition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Training runs as Slurm batch jobs through slurmrestd 22.05 (JWT; the client is generated from slurmrestd's
 * OpenAPI document, module slurm-client). One run is one job: {@code --gres=gpu:N} in the placement's partition,
 * the spec's time limit, requeue on node failure, the protocol's environment, and SIGUSR1 to the batch shell a
 * grace period before the time limit — what {@code --signal=B:USR1@<grace>} does; slurmrestd 22.05 refuses that
 * form ("Invalid SIGNAL specification"), so the batch script arms it itself ({@link SlurmBatchScript}).
 * slurmrestd 22.05 lacks two operations, done with Slurm's own commands instead ({@link SlurmCommands}): a signal
 * to the batch shell only, and requeue.
 */
public final class SlurmBackend implements TrainingBackend {
    private final SlurmSettings settings;
    private final SlurmApi api;
    private final SlurmCalls calls;
    private final SlurmCommands commands;
    private final Clock clock;

    public SlurmBackend(SlurmSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.api = SlurmRest.api(settings.restUrl(), settings.user(), this::token, settings.timeout());
        this.calls = new SlurmCalls(settings);
        this.commands = new SlurmCommands(settings.slurmConf());
    }

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public BackendInventory inventory() throws BackendException {
        List<V0038Partition> partitions = calls.call("list partitions", () -> api.slurmV0038GetPartitions(null)).getPartitions();
        List<V0038Node> nodes = calls.call("list nodes", () -> api.slurmV0038GetNodes(null)).getNodes();
        List<PartitionInventory> result = new ArrayList<>();
        for (V0038Partition p : partitions) {
            List<V0038Node> members = nodes.stream()
                    .filter(n -> n.getPartitions() != null && n.getPartitions().contains(p.getName())).toList();
            V0038Node first = members.isEmpty() ? null : members.getFirst();
            result.add(new PartitionInventory(p.getName(), p.getFlags() != null && p.getFlags().contains("default"),
                    members.stream().map(V0038Node::getName).toList(), first == null ? 0 : SlurmGres.gpuCount(first.getGres()),
                    first == null ? Optional.empty() : SlurmGres.gpuModel(first.getGres()),
                    first == null ? 0 : first.getCpus().intValue(), first == null ? 0 : first.getRealMemory()));
        }
        return new BackendInventory(settings.site(), result);
    }

    @Override
    public BackendJobHandle submit(TrainingJobSpec spec, Placement placement) throws BackendException {
        if (spec.command().isEmpty()) {
            throw new BackendException.Rejected("command", "the Slurm backend runs a command; container images need the kubernetes backend");
        }
        String name = "continuum-" + spec.jobId() + "-a" + spec.attempt();
        Path stem = Path.of(spec.workDir(), "slurm-" + spec.jobId() + "-a" + spec.attempt());
        try {
            // Slurm fails a job whose working directory or output file's directory is missing (JobLaunchFailure)
            Files.createDirectories(stem.getParent());
        } catch (IOException e) {
            throw new BackendException.Rejected("work_dir", "cannot create the job's directory " + stem.getParent() + ": " + e.getMessage());
        }
        int world = placement.worldSize();
        Map<String, String> env = SlurmBatchScript.environment(spec, world);
        env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
        long grace = Math.max(1, Math.min(65535, spec.gracePeriod().toSeconds()));
        V0038JobProperties job = new V0038JobProperties().name(name).partition(placement.partition())
                .currentWorkingDirectory(spec.workDir()).environment(env)
                .standardOutput(stem + ".out").standardError(stem + ".out")
                .timeLimit(Math.max(1, (spec.timeLimit().toSeconds() + 59) / 60))
                .requeue(true)
                .tasks(1L).cpusPerTask((long) spec.cpusPerProcess() * world)
                .nice((long) -spec.priority());
        if (placement.gpus() > 0) {
            job.gres("gpu:" + spec.gpuModel().map(m -> m + ":").orElse("") + placement.gpus());
        }
        if (spec.memoryMb() > 0) {
            job.memoryPerNode(spec.memoryMb() * world);
        }
        String script = SlurmBatchScript.render(spec, world, env, stem + ".exit");
        // a submit retried after a lost answer must not start the job twice: look for it by its name first
        long id = calls.submit("submit job " + name,
                () -> findByName(name),
                () -> api.slurmV0038SubmitJob(new V0038JobSubmission().script(script).job(job)));
        return SlurmHandle.of(id, grace, stem).toHandle();
    }

    @Override
    public BackendJobStatus status(BackendJobHandle handle) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        Optional<Progress> progress = lastProgress(h.stem().resolveSibling(h.stem().getFileName() + ".out"));
        Optional<V0038JobResponseProperties> job = calls.job("read job " + h.jobId(), () -> api.slurmV0038GetJob(h.jobId()));
        if (job.isEmpty()) {
            return exitFile(h).map(code -> SlurmJobState.exited((long) code << 8, null, progress))
                    .orElse(new BackendJobStatus.Lost("Slurm has no job " + h.jobId() + " any more and it left no exit code"));
        }
        SlurmJobState state = state(job.get());
        if (state.running() && state.stopDeadline().filter(d -> clock.instant().isAfter(d)).isPresent()) {
            // the run ignored the signal for the whole grace period: end it (Slurm: TERM, KillWait, KILL)
            calls.ignoringMissing("kill job " + h.jobId() + " after the grace period", () -> api.slurmV0038CancelJob(h.jobId(), null));
        }
        int gpus = SlurmGres.tresGpus(job.get().getTresReqStr());
        return state.toStatus(settings.site(), gpus, progress);
    }

    @Override
    public void requestCheckpoint(BackendJobHandle handle, boolean stopAfter) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        Optional<V0038JobResponseProperties> job = calls.job("read job " + h.jobId(), () -> api.slurmV0038GetJob(h.jobId()));
        if (job.isEmpty() || !state(job.get()).running()) {
            return;
        }
        if (stopAfter) {
            long deadline = clock.instant().plusSeconds(h.graceSeconds()).getEpochSecond();
            V0038JobProperties mark = SlurmRest.jobUpdate().comment(SlurmJobState.STOP_MARK + deadline);
            calls.ignoringMissing("mark job " + h.jobId() + " stopping", () -> api.slurmV0038UpdateJob(h.jobId(), mark));
        }
        // Fallback: slurmrestd 22.05 signals every process of the job (no batch-only option), so each rank would get
        // SIGUSR1 twice (directly and from the batch shell, which must forward --signal=B:USR1): scancel --batch.
        commands.signalBatch(h.jobId(), "USR1");
    }

    @Override
    public void cancel(BackendJobHandle handle) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        calls.ignoringMissing("cancel job " + h.jobId(), () -> api.slurmV0038CancelJob(h.jobId(), null));
    }

    /**
     * Slurm's own preemption: puts a job (running, or ended with a checkpoint) back into the queue under the same
     * job id, held when {@code hold}, so it resumes from its checkpoint when started again ({@link #release}).
     * Fallback: slurmrestd 22.05 has no requeue, so this is {@code scontrol requeue[hold]}.
     */
    public void requeue(BackendJobHandle handle, boolean hold) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        calls.ignoringMissing("clear job " + h.jobId() + "'s stop mark",
                () -> api.slurmV0038UpdateJob(h.jobId(), SlurmRest.jobUpdate().comment("")));
        commands.requeue(h.jobId(), hold);
    }

    /** Holds a pending job (priority 0) through slurmrestd's job update. */
    public void hold(BackendJobHandle handle) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        calls.ignoringMissing("hold job " + h.jobId(), () -> api.slurmV0038UpdateJob(h.jobId(), SlurmRest.jobUpdate().hold(true)));
    }

    /** Releases a held job through slurmrestd's job update. */
    public void release(BackendJobHandle handle) throws BackendException {
        SlurmHandle h = SlurmHandle.from(handle);
        calls.ignoringMissing("release job " + h.jobId(), () -> api.slurmV0038UpdateJob(h.jobId(), SlurmRest.jobUpdate().hold(false)));
    }

    @Override
    public void close() {
        // java.net.http's client holds no resources that outlive its last call
    }

    private Optional<Long> findByName(String name) throws ApiException {
        var jobs = api.slurmV0038GetJobs(null).getJobs();
        return jobs == null ? Optional.empty()
                : jobs.stream().filter(j -> name.equals(j.getName())).map(V0038JobResponseProperties::getJobId).findFirst();
    }

    private static SlurmJobState state(V0038JobResponseProperties j) {
        return new SlurmJobState(j.getJobState(), j.getStateReason(), j.getExitCode() == null ? 0 : j.getExitCode(),
                j.getPartition(), j.getNodes(), j.getGresDetail() == null ? "" : String.join(",", j.getGresDetail()),
                j.getComment());
    }

    private String token() {
        try {
            return Files.readString(settings.tokenFile()).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Slurm token file " + settings.tokenFile(), e);
        }
    }

    private static Optional<Integer> exitFile(SlurmHandle h) {
        Path file = h.stem().resolveSibling(h.stem().getFileName() + ".exit");
        try {
            return Files.exists(file) ? Optional.of(Integer.parseInt(Files.readString(file).strip())) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The last progress line in the job's output (read from its end: the file grows for hours). */
    static Optional<Progress> lastProgress(Path out) {
        try (var file = new java.io.RandomAccessFile(out.toFile(), "r")) {
            long length = file.length();
            long from = Math.max(0, length - 64 * 1024);
            byte[] tail = new byte[(int) (length - from)];
            file.seek(from);
            file.readFully(tail);
            List<String> lines = new String(tail, java.nio.charset.StandardCharsets.UTF_8).lines().toList();
            for (int i = lines.size() - 1; i >= 0; i--) {
                Optional<Progress> p = Progress.parse(lines.get(i));
                if (p.isPresent()) {
                    return p;
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

}
