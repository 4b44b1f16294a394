package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a gateway has and how busy it is, sent every few seconds. {@code credential} lets the cloud
 * ignore heartbeats from devices it never registered or has revoked. {@code wire} lists the message
 * forms it reads ({@code json}, {@code frame}); {@code role} whether it is an edge gateway or the datacenter's
 * inference pool ({@link #ROLE_DATACENTER}).
 */
public record Heartbeat(@JsonProperty("device_id") String deviceId,
                        @JsonProperty("credential") String credential,
                        @JsonProperty("at") String at,
                        @JsonProperty("sequence") long sequence,
                        @JsonProperty("gpus") List<GpuInfo> gpus,
                        @JsonProperty("cpu_cores") int cpuCores,
                        @JsonProperty("cpu_load") double cpuLoad,
                        @JsonProperty("memory_total_mb") long memoryTotalMb,
                        @JsonProperty("memory_free_mb") long memoryFreeMb,
                        @JsonProperty("disk_free_mb") long diskFreeMb,
                        @JsonProperty("execution_provider") String executionProvider,
                        @JsonProperty("loaded_models") List<LoadedModel> loadedModels,
                        @JsonProperty("queued_tasks") int queuedTasks,
                        @JsonProperty("running_tasks") int runningTasks,
                        @JsonProperty("wire") List<String> wire,
                        @JsonProperty("role") String role) {

    /** What a gateway of this version reads: JSON messages and binary frames ({@link Wire}). */
    public static final List<String> WIRE_FORMS = List.of("json", "frame");

    /** A gateway beside instruments (the default, and what a gateway that does not say is). */
    public static final String ROLE_EDGE = "edge";
    /** The same runtime serving as the datacenter's inference pool. */
    public static final String ROLE_DATACENTER = "datacenter";
    public static final List<String> ROLES = List.of(ROLE_EDGE, ROLE_DATACENTER);

    public Heartbeat {
        role = role == null ? ROLE_EDGE : role;
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        loadedModels = loadedModels == null ? List.of() : List.copyOf(loadedModels);
        wire = wire == null ? List.of("json") : List.copyOf(wire); // a gateway that does not say reads JSON only
    }

    /** True when the gateway reads binary frames, so the cloud may send it tensors as raw bytes. */
    public boolean readsFrames() {
        return wire.contains("frame");
    }

    public boolean datacenter() {
        return ROLE_DATACENTER.equals(role);
    }

    public long gpuMemoryFreeMb() {
        return gpus.stream().mapToLong(GpuInfo::memoryFreeMb).max().orElse(0);
    }

    public boolean hasModel(String reference) {
        return loadedModels.stream().anyMatch(m -> m.answersTo(reference));
    }

    /** A model in the gateway's cache: its digest, and the name/version it is deployed under, if any. */
    public record LoadedModel(@JsonProperty("digest") String digest,
                              @JsonProperty("name") String name,
                              @JsonProperty("version") String version) {

        public boolean answersTo(String reference) {
            return reference.equals(digest) || reference.equals(name)
                    || (name != null && version != null && reference.equals(name + "@" + version));
        }
    }
}
