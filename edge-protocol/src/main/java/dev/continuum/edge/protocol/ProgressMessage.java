package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Best-effort news about a task (QoS 0): "queued" when spooled behind other tasks, "running" when its
 * inference has run for 50 ms. A quick task with nothing ahead of it gets no progress, only its result.
 */
public record ProgressMessage(@JsonProperty("task_id") String taskId,
                              @JsonProperty("device_id") String deviceId,
                              @JsonProperty("state") String state,
                              @JsonProperty("queue_position") int queuePosition) {}
