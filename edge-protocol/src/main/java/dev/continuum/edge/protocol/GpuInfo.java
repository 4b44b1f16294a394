package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One accelerator as the NVIDIA management interface reports it. */
public record GpuInfo(@JsonProperty("index") int index,
                      @JsonProperty("model") String model,
                      @JsonProperty("memory_total_mb") long memoryTotalMb,
                      @JsonProperty("memory_used_mb") long memoryUsedMb,
                      @JsonProperty("utilization_percent") int utilizationPercent) {

    public long memoryFreeMb() {
        return Math.max(0, memoryTotalMb - memoryUsedMb);
    }
}
