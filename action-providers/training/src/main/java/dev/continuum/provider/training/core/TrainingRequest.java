package dev.continuum.provider.training.core;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated training request (the provider's body after {@code RequestReader}): paths are
 * absolute and confined, numbers in range, {@code gpusMin <= gpusMax}.
 */
public record TrainingRequest(List<String> command, Optional<String> image, List<String> args,
                              Map<String, String> env, List<String> datasets, int gpusMin, int gpusMax,
                              Optional<String> gpuModel, int cpus, long memoryMb, Duration timeLimit,
                              Path checkpointDir, Path outputDir, int priority, Optional<Instant> deadline,
                              boolean elastic, Optional<String> partition, Duration gracePeriod,
                              Optional<String> site) {
    public TrainingRequest {
        command = List.copyOf(command);
        args = List.copyOf(args);
        env = Map.copyOf(env);
        datasets = List.copyOf(datasets);
    }

    /** A request for the provider's home site (the only one unless it runs several). */
    public TrainingRequest(List<String> command, Optional<String> image, List<String> args, Map<String, String> env,
                           List<String> datasets, int gpusMin, int gpusMax, Optional<String> gpuModel, int cpus,
                           long memoryMb, Duration timeLimit, Path checkpointDir, Path outputDir, int priority,
                           Optional<Instant> deadline, boolean elastic, Optional<String> partition,
                           Duration gracePeriod) {
        this(command, image, args, env, datasets, gpusMin, gpusMax, gpuModel, cpus, memoryMb, timeLimit, checkpointDir,
                outputDir, priority, deadline, elastic, partition, gracePeriod, Optional.empty());
    }

    /** The GPUs a run gets when nothing else decides: the most it may use. */
    public int preferredGpus() {
        return gpusMax;
    }

    public TrainingRequest withGpus(int min, int max) {
        return new TrainingRequest(command, image, args, env, datasets, min, max, gpuModel, cpus, memoryMb, timeLimit,
                checkpointDir, outputDir, priority, deadline, elastic, partition, gracePeriod, site);
    }

    /** The same request bound to another partition (a migrated job stays where it was moved). */
    public TrainingRequest withPartition(String p) {
        return new TrainingRequest(command, image, args, env, datasets, gpusMin, gpusMax, gpuModel, cpus, memoryMb,
                timeLimit, checkpointDir, outputDir, priority, deadline, elastic, Optional.of(p), gracePeriod, site);
    }

    /**
     * The same request bound to partition {@code p} of site {@code s}, its checkpoints and model in that site's
     * directories (a job moved to another site stays there, and resumes from the checkpoint carried there).
     */
    public TrainingRequest atSite(String s, String p, Path checkpoints, Path output) {
        return new TrainingRequest(command, image, args, env, datasets, gpusMin, gpusMax, gpuModel, cpus, memoryMb,
                timeLimit, checkpoints, output, priority, deadline, elastic, Optional.of(p), gracePeriod, Optional.of(s));
    }
}
