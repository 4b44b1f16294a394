package dev.continuum.provider.training.backend.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The local backend's machine: {@code gpuSlots} are the device numbers handed out through
 * CUDA_VISIBLE_DEVICES, one per process (real GPUs when the machine has them; on a machine
 * without, slots are just a way to run a job with a world size above 1).
 */
public record LocalBackendConfig(String site, String partition, List<String> gpuSlots, Optional<String> gpuModel,
                                 int cpus, long memoryMb) {
    public LocalBackendConfig {
        gpuSlots = List.copyOf(gpuSlots);
        if (cpus < 1) {
            throw new IllegalArgumentException("cpus must be at least 1");
        }
    }

    /** This machine: its real NVIDIA GPUs when /dev has them, else {@code fallbackSlots} slots. */
    public static LocalBackendConfig detect(int fallbackSlots) {
        long nvidia = IntStream.range(0, 64).filter(i -> Files.exists(Path.of("/dev/nvidia" + i))).count();
        int slots = nvidia > 0 ? (int) nvidia : fallbackSlots;
        long memoryMb = Runtime.getRuntime().maxMemory() / (1024 * 1024) * 4;
        return new LocalBackendConfig("local", "local", IntStream.range(0, slots).mapToObj(Integer::toString).toList(),
                nvidia > 0 ? Optional.of("nvidia") : Optional.empty(), Runtime.getRuntime().availableProcessors(),
                memoryMb);
    }

    /** The same machine reported as site {@code name} (a provider running several local sites names each). */
    public LocalBackendConfig withSite(String name) {
        return new LocalBackendConfig(name, partition, gpuSlots, gpuModel, cpus, memoryMb);
    }

    public LocalBackendConfig withSlots(int slots) {
        return new LocalBackendConfig(site, partition, IntStream.range(0, slots).mapToObj(Integer::toString).toList(),
                gpuModel, cpus, memoryMb);
    }
}
