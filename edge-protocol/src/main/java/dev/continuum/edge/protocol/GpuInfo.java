package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One accelerator as the NVIDIA management interface reports it. {@code temperatureC} and {@code powerW} are null
 * when the board does not report them ({@code [N/A]}) and when the gateway is older than these fields (they are
 * left out of the JSON then).
 */
public record GpuInfo(@JsonProperty("index") int index,
                      @JsonProperty("model") String model,
                      @JsonProperty("memory_total_mb") long memoryTotalMb,
                      @JsonProperty("memory_used_mb") long memoryUsedMb,
                      @JsonProperty("utilization_percent") int utilizationPercent,
                      @JsonProperty("temperature_c") Integer temperatureC,
                      @JsonProperty("power_w") Double powerW) {

    /** A reading without temperature and power. */
    public GpuInfo(int index, String model, long memoryTotalMb, long memoryUsedMb, int utilizationPercent) {
        this(index, model, memoryTotalMb, memoryUsedMb, utilizationPercent, null, null);
    }

    public long memoryFreeMb() {
        return Math.max(0, memoryTotalMb - memoryUsedMb);
    }
}
