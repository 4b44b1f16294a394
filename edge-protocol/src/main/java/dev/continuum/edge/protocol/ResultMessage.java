package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/** The outcome of one task, delivered once per task id (a repeat is harmless: same content). */
public record ResultMessage(@JsonProperty("task_id") String taskId,
                            @JsonProperty("device_id") String deviceId,
                            @JsonProperty("credential") String credential,
                            @JsonProperty("status") String status,
                            @JsonProperty("output") Tensor output,
                            @JsonProperty("error") String error,
                            @JsonProperty("model_digest") String modelDigest,
                            @JsonProperty("batch_size") int batchSize,
                            @JsonProperty("queued_ms") double queuedMs,
                            @JsonProperty("inference_ms") double inferenceMs) implements CarriesTensor<ResultMessage> {

    public static final String SUCCEEDED = "SUCCEEDED";
    public static final String FAILED = "FAILED";

    public static ResultMessage failed(String taskId, String deviceId, String error) {
        return new ResultMessage(taskId, deviceId, null, FAILED, null, error, null, 0, 0, 0);
    }

    @JsonIgnore
    public boolean succeeded() {
        return SUCCEEDED.equals(status);
    }

    @Override
    public Tensor tensor() {
        return output;
    }

    @Override
    public ResultMessage withTensor(Tensor tensor) {
        return new ResultMessage(taskId, deviceId, credential, status, tensor, error, modelDigest, batchSize,
                queuedMs, inferenceMs);
    }

    public ResultMessage signedWith(String newCredential) {
        return new ResultMessage(taskId, deviceId, newCredential, status, output, error, modelDigest, batchSize,
                queuedMs, inferenceMs);
    }
}
