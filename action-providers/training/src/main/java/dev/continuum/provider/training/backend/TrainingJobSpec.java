package dev.continuum.provider.training.backend;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One training job as a backend needs it, already validated by the provider (paths confined,
 * sizes positive). Exactly one of {@code command} (a program and its arguments, run directly; for
 * local and Slurm) or {@code image} (a container image, for Kubernetes; {@code command} then
 * overrides its entrypoint when not empty) is set; {@code args} are appended in both cases.
 *
 * @param jobId          the action's stable id: the same on every attempt, usable in job names
 * @param attempt        1 for the first run, +1 on every resubmission after a checkpointed stop
 * @param workDir        the run's working directory (absolute, exists); logs go below it
 * @param checkpointDir  CONTINUUM_CHECKPOINT_DIR: absolute, the same on every attempt
 * @param outputDir      CONTINUUM_OUTPUT_DIR: where the job writes the produced model
 * @param cpusPerProcess CPUs per process (per GPU), at least 1
 * @param memoryMb       memory per process in MiB, 0 for the backend's default
 * @param timeLimit      wall time of this run; the backend asks for a checkpoint before it ends
 * @param gracePeriod    how long a run may take to checkpoint and exit after the signal
 * @param priority       higher runs first where the backend has its own queue (Slurm nice, Kueue)
 */
public record TrainingJobSpec(String jobId, int attempt, List<String> command, Optional<String> image,
                              List<String> args, Map<String, String> env, Optional<String> gpuModel,
                              int cpusPerProcess, long memoryMb, Duration timeLimit, Duration gracePeriod,
                              String workDir, String checkpointDir, String outputDir, int priority) {
    public TrainingJobSpec {
        Objects.requireNonNull(jobId, "jobId");
        command = List.copyOf(command == null ? List.of() : command);
        image = image == null ? Optional.empty() : image;
        args = List.copyOf(args == null ? List.of() : args);
        env = Map.copyOf(env == null ? Map.of() : env);
        gpuModel = gpuModel == null ? Optional.empty() : gpuModel;
        Objects.requireNonNull(timeLimit, "timeLimit");
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(checkpointDir, "checkpointDir");
        Objects.requireNonNull(outputDir, "outputDir");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt starts at 1");
        }
        if (command.isEmpty() && image.isEmpty()) {
            throw new IllegalArgumentException("a job needs a command or an image");
        }
        if (cpusPerProcess < 1 || memoryMb < 0 || timeLimit.isNegative() || gracePeriod.isNegative()) {
            throw new IllegalArgumentException("cpus, memory, time limit and grace period must not be negative");
        }
    }

    /** The same job's next run: attempt + 1, everything else kept. */
    public TrainingJobSpec nextAttempt() {
        return new TrainingJobSpec(jobId, attempt + 1, command, image, args, env, gpuModel, cpusPerProcess,
                memoryMb, timeLimit, gracePeriod, workDir, checkpointDir, outputDir, priority);
    }

    /** The program and arguments a process runs: command then args. */
    public List<String> commandLine() {
        return java.util.stream.Stream.concat(command.stream(), args.stream()).toList();
    }
}
