package dev.continuum.placement.api;

import java.util.List;

/**
 * {@code POST /placements} as sent: the planner's placement request with everything but {@code kind} optional
 * (null = not said; the planner core fills the defaults and checks the fields, {@code PlacementRequests} in
 * placement/core). Field names are the core request's own, so the planner's field errors point at what the caller
 * wrote. {@code kind} is {@code inference} or {@code training}. {@code owner} names the caller (one topic level: its
 * MQTT client id) when it wants each re-placement of the job pushed to {@code <root>/placement/<owner>/replaced} as a
 * {@link Replacement} (docs/placement.md "Re-placements are pushed"); null = the caller reads them with
 * {@code GET /placements/{id}}.
 */
public record PlacementBody(String id, String runId, String kind, String model, Integer minGpus, Integer maxGpus,
                            DemandBody demand, List<DataBody> data, Long deadlineEpochSeconds, Long latencySloMillis,
                            Integer priority, String tenant, String partition, Long estimatedSeconds,
                            Boolean preemptible, Long minGpuMemoryMib, String site,
                            String owner) {

    /** The kinds of job, as {@link #kind} names them. */
    public static final String INFERENCE = "inference";
    public static final String TRAINING = "training";

    /** GPUs ({@code gpuMilli} thousandths of each, 1000 = whole), accepted GPU models, CPU and memory. */
    public record DemandBody(Integer gpus, Integer gpuMilli, List<String> gpuModels, Long cpuMilli, Long memoryMib) {}

    /** An input: the endpoint holding it, its path there and its size. */
    public record DataBody(String endpointId, String path, Long sizeBytes) {}
}
