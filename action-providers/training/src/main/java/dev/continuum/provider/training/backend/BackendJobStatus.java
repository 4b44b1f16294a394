package dev.continuum.provider.training.backend;

import java.util.Optional;

/**
 * What a backend knows about one run. The provider maps it onto the action's state
 * (queued, running, checkpointing, preempted, migrating, resizing, succeeded, failed).
 * {@code progress} is the last {@link Progress} line the job printed, when the backend can read
 * the job's output (it may be empty even while running).
 */
public sealed interface BackendJobStatus {

    /** Accepted, waiting in the backend's own queue (Slurm PENDING, Kubernetes Job not admitted). */
    record Pending(String reason) implements BackendJobStatus {
    }

    /** Processes are running; {@code placement} has the nodes and GPUs the backend assigned. */
    record Running(Placement placement, Optional<Progress> progress) implements BackendJobStatus {
    }

    /** A checkpoint-and-stop was requested and the run has not exited yet. */
    record Stopping(Placement placement, Optional<Progress> progress) implements BackendJobStatus {
    }

    /** Exited with {@link CheckpointProtocol#EXIT_CHECKPOINTED}: saved, resumable. */
    record Checkpointed(Optional<Progress> progress) implements BackendJobStatus {
    }

    /** Killed after the grace period (ignored the signal) or by the time limit: resumable from the newest checkpoint. */
    record Killed(String reason, Optional<Progress> progress) implements BackendJobStatus {
    }

    /** Exited 0: training finished, the model is in the output directory. */
    record Succeeded(Optional<Progress> progress) implements BackendJobStatus {
    }

    /** Exited with another code, or the backend refused to run it; {@code message} says why (no secrets). */
    record Failed(int exitCode, String message, Optional<Progress> progress) implements BackendJobStatus {
    }

    /** Stopped by {@link TrainingBackend#cancel}. */
    record Cancelled() implements BackendJobStatus {
    }

    /** The backend has no trace of the run (node lost, provider restarted with the local backend). */
    record Lost(String reason) implements BackendJobStatus {
    }

    /** True when the run will not change any more. */
    default boolean finished() {
        return !(this instanceof Pending || this instanceof Running || this instanceof Stopping);
    }
}
