package dev.continuum.edge.gateway.resources;

import dev.continuum.edge.protocol.GpuInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/** The machine's resources for a heartbeat, from the JDK alone (plus {@code nvidia-smi} for GPUs). */
public final class ResourceProbe {

    public record Snapshot(List<GpuInfo> gpus, int cpuCores, double cpuLoad, long memoryTotalMb,
                           long memoryFreeMb, long diskFreeMb) {}

    private final Supplier<List<GpuInfo>> gpuSource;
    private final Path disk;

    public ResourceProbe(Supplier<List<GpuInfo>> gpuSource, Path disk) {
        this.gpuSource = gpuSource;
        this.disk = disk;
    }

    public Snapshot sample() {
        int cores = Runtime.getRuntime().availableProcessors();
        double load = 0;
        long total = 0;
        long free = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            load = Math.max(0, os.getCpuLoad());
            total = os.getTotalMemorySize() / (1024 * 1024);
            free = os.getFreeMemorySize() / (1024 * 1024);
        }
        long diskFree;
        try {
            diskFree = Files.getFileStore(disk).getUsableSpace() / (1024 * 1024);
        } catch (IOException e) {
            diskFree = 0;
        }
        return new Snapshot(gpuSource.get(), cores, load, total, free, diskFree);
    }
}
