package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendJobHandle;
import java.nio.file.Path;

/**
 * What the backend needs to find a run again, also after a restart, packed into the provider's opaque handle:
 * Slurm's job id, the grace period asked for at submit, and the path stem of the job's output and exit files.
 */
record SlurmHandle(String jobId, long graceSeconds, Path stem) {
    private static final String SEP = "|";

    static SlurmHandle of(long jobId, long graceSeconds, Path stem) {
        return new SlurmHandle(Long.toString(jobId), graceSeconds, stem);
    }

    BackendJobHandle toHandle() {
        return new BackendJobHandle("slurm", jobId + SEP + graceSeconds + SEP + stem);
    }

    static SlurmHandle from(BackendJobHandle handle) {
        String[] parts = handle.value().split("\\|", 3);
        if (!"slurm".equals(handle.backend()) || parts.length != 3) {
            throw new IllegalArgumentException("not a Slurm backend handle: " + handle);
        }
        return new SlurmHandle(parts[0], Long.parseLong(parts[1]), Path.of(parts[2]));
    }
}
