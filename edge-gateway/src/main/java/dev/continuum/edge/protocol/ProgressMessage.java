package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Best-effort news about a task (QoS 0): "queued" when spooled behind other tasks, "running" when
 * inference starts (a task with nothing ahead of it gets only "running").
 */
public record ProgressMessage(@JsonProperty("task_id") String taskId,
                              @JsonProperty("device_id") String deviceId,
                              @JsonProperty("state") String state,
                              @JsonProperty("queue_position") int queuePosition) {}
