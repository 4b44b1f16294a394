package dev.continuum.provider.training.backend;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names of the checkpoint protocol (docs/training.md) that scripts and backends share.
 *
 * <p>A run's processes get these variables; on {@link #SIGNAL_LOCAL} (SIGUSR1; Slurm delivers it
 * with {@code --signal=B:USR1@<grace>}, Kubernetes sends SIGTERM within the grace period) a job
 * writes a checkpoint and exits with {@link #EXIT_CHECKPOINTED}. Checkpoints are written under a
 * temporary name and renamed, so a half-written one is never seen (see {@link Checkpoints}).
 */
public final class CheckpointProtocol {
    /** Directory for checkpoints; the same on every attempt of a job. */
    public static final String ENV_CHECKPOINT_DIR = "CONTINUUM_CHECKPOINT_DIR";
    /** Directory where the finished job leaves its model. */
    public static final String ENV_OUTPUT_DIR = "CONTINUUM_OUTPUT_DIR";
    /** Number of processes of this run (one per GPU). */
    public static final String ENV_WORLD_SIZE = "CONTINUUM_WORLD_SIZE";
    /** This process's rank, 0 .. world size - 1; rank 0 writes checkpoints and reports progress. */
    public static final String ENV_RANK = "CONTINUUM_RANK";
    /** This process's rank among the processes of its node. */
    public static final String ENV_LOCAL_RANK = "CONTINUUM_LOCAL_RANK";
    /** The action's job id, stable across attempts. */
    public static final String ENV_JOB_ID = "CONTINUUM_JOB_ID";
    /** 1, 2, ...: the run's attempt number. */
    public static final String ENV_ATTEMPT = "CONTINUUM_ATTEMPT";
    /** The GPUs of this process, as CUDA numbers them. */
    public static final String ENV_CUDA_VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES";

    /** The exit code of a job that saved a checkpoint on request and stopped: "resume me". */
    public static final int EXIT_CHECKPOINTED = 85;
    /** The signal asking for checkpoint-and-exit on the local and Slurm backends. */
    public static final String SIGNAL_LOCAL = "USR1";
    /** The signal Kubernetes sends when it stops a pod; jobs treat it as {@link #SIGNAL_LOCAL}. */
    public static final String SIGNAL_KUBERNETES = "TERM";

    private CheckpointProtocol() {
    }

    /**
     * The protocol's environment for one process of a run (without {@code CUDA_VISIBLE_DEVICES},
     * which only the backend that assigned devices knows). The spec's own env comes first, so a
     * user cannot override the protocol's names.
     */
    public static Map<String, String> environment(TrainingJobSpec spec, int worldSize, int rank, int localRank) {
        Map<String, String> env = new LinkedHashMap<>(spec.env());
        env.put(ENV_CHECKPOINT_DIR, spec.checkpointDir());
        env.put(ENV_OUTPUT_DIR, spec.outputDir());
        env.put(ENV_WORLD_SIZE, Integer.toString(worldSize));
        env.put(ENV_RANK, Integer.toString(rank));
        env.put(ENV_LOCAL_RANK, Integer.toString(localRank));
        env.put(ENV_JOB_ID, spec.jobId());
        env.put(ENV_ATTEMPT, Integer.toString(spec.attempt()));
        return env;
    }
}
