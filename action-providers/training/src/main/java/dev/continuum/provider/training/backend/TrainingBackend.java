package dev.continuum.provider.training.backend;

/**
 * Where a training job's processes actually run: {@code local} (child processes on this machine),
 * {@code slurm} (slurmrestd) or {@code kubernetes} (Jobs). The provider owns the action, its
 * state machine, the planner and the store; a backend only starts, watches and stops one run
 * ("attempt") of a job at a time. This interface is the whole contract between them.
 *
 * <h2>Runs and attempts</h2>
 * A training action lives through several runs: every preemption, migration or resize ends one
 * run with a checkpoint and the provider later {@link #submit submits} a new run of the same
 * {@link TrainingJobSpec#jobId() job} with {@link TrainingJobSpec#attempt() attempt} + 1 and the
 * new placement. Backends never restart a job on their own initiative except where their
 * scheduler does it natively (Slurm's requeue after a node failure); they report what happened.
 *
 * <h2>What a backend must give a run</h2>
 * Every process of the run gets the environment of {@link CheckpointProtocol} (checkpoint
 * directory, world size, rank, local rank, job id, attempt; {@code CUDA_VISIBLE_DEVICES} for the
 * GPUs the backend assigned), plus {@link TrainingJobSpec#env()}. The checkpoint directory is the
 * same path on every attempt, whichever node or partition it lands on (shared filesystem, or
 * carried there by the provider before submit when sites differ).
 *
 * <h2>Checkpoint and stop</h2>
 * {@link #requestCheckpoint} delivers the protocol's signal (SIGUSR1 locally and on Slurm,
 * SIGTERM on Kubernetes) to every process of the run. With {@code stopAfter} the run is expected
 * to save and exit with {@link CheckpointProtocol#EXIT_CHECKPOINTED}; if it is still running after
 * {@link TrainingJobSpec#gracePeriod()} the backend kills it. The outcome shows up in
 * {@link #status}: {@link BackendJobStatus.Checkpointed} when the exit code was the protocol's,
 * {@link BackendJobStatus.Killed} when the grace period ran out (the provider then resumes from the
 * newest periodic checkpoint, see {@link Checkpoints}).
 *
 * <h2>Errors</h2>
 * Every method may throw {@link BackendException}: {@link BackendException.Unavailable} when the
 * backend's service cannot be reached (Slurm down; the provider keeps the action waiting and
 * retries, nothing is lost) and {@link BackendException.Rejected} when the request itself cannot
 * be run there (names the offending request field; the provider answers 4xx or fails the action).
 *
 * <h2>Threads and restarts</h2>
 * Implementations must be safe for concurrent calls. {@link #status} must answer for any handle
 * this backend returned earlier, also from another process of the provider after a restart
 * (persist nothing yourself: the provider stores the handle); a handle whose run cannot be found
 * any more answers {@link BackendJobStatus.Lost}, which the provider resumes from the checkpoint.
 * Calls are cheap to repeat: the provider polls {@link #status} every second or so.
 */
public interface TrainingBackend extends AutoCloseable {

    /** The backend's name as configured: {@code local}, {@code slurm}, {@code kubernetes}. */
    String name();

    /**
     * What this backend can offer: its partitions with nodes and GPUs, used to reject requests
     * that could never run (more GPUs than exist, unknown partition) and to feed the planner.
     */
    BackendInventory inventory() throws BackendException;

    /**
     * Starts one run of the job on the given placement. {@code placement.gpus()} GPUs in
     * {@code placement.partition()} (the backend chooses nodes and devices when the placement
     * leaves them empty and reports its choice in {@link BackendJobStatus}). Returns at once, the
     * run may still be pending in the backend's own queue.
     *
     * @return an opaque handle the provider stores and passes back; unique per attempt
     */
    BackendJobHandle submit(TrainingJobSpec spec, Placement placement) throws BackendException;

    /** The run's current state, with progress when the job reported some. */
    BackendJobStatus status(BackendJobHandle handle) throws BackendException;

    /**
     * Asks the run to write a checkpoint now. With {@code stopAfter} false the job keeps running
     * (a checkpoint on demand, e.g. before a deadline); with true it saves and exits so that it can
     * be preempted, moved or resized, and is killed after the grace period if it does not exit.
     * A run that is not running (pending, finished) is left as is.
     */
    void requestCheckpoint(BackendJobHandle handle, boolean stopAfter) throws BackendException;

    /**
     * Stops the run at once without a checkpoint (SIGTERM, then SIGKILL after the grace period)
     * and forgets its queue entry. Idempotent; a finished run is left as is.
     */
    void cancel(BackendJobHandle handle) throws BackendException;

    /** Releases connections and stops watchers; running jobs of remote backends keep running. */
    @Override
    void close();
}
