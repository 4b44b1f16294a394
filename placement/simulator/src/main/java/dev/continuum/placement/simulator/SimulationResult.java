package dev.continuum.placement.simulator;

import java.util.List;
import java.util.Map;

/**
 * Every metric of one policy's run. Times are seconds of simulated time; series points are
 * (seconds since the first arrival, value).
 *
 * @param fragmentedGpus     FGD's fragmentation measure, in GPUs (time-weighted mean and peak)
 * @param sloAttainment      share of finished jobs that met their deadline (or sloFactor x duration)
 * @param filteredRecords    trace records left out as never run (e.g. openb pods still Pending)
 * @param lostGpuSeconds     GPU time spent on checkpoints, restores and migrations
 */
public record SimulationResult(
        String policy,
        long jobs,
        long finished,
        long rejected,
        long skippedLines,
        long filteredRecords,
        Summary jct,
        Summary queueingDelay,
        double makespan,
        double meanUtilization,
        Map<String, Double> meanPartitionUtilization,
        double meanFragmentedGpus,
        double peakFragmentedGpus,
        double meanQueueLength,
        long preemptions,
        long migrations,
        double lostGpuSeconds,
        double sloAttainment,
        long wallMillis,
        long cpuMillis,
        List<double[]> jctCdf,
        Map<String, List<double[]>> series) {
}
