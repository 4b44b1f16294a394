package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of one task, delivered once per task id (a repeat is harmless: same content). Where the gateway's
 * time went, so a planner can learn each term: {@code queuedMs} from the task's arrival (spooled) until the worker
 * took its batch, {@code inputMs} reading and checking the batch's inputs ({@code input_ref} files parsed, inline
 * tensors checked), {@code inferenceMs} the batch's ONNX Runtime run; the task finished after the three.
 */
public record ResultMessage(@JsonProperty("task_id") String taskId,
                            @JsonProperty("device_id") String deviceId,
                            @JsonProperty("credential") String credential,
                            @JsonProperty("status") String status,
                            @JsonProperty("output") Tensor output,
                            @JsonProperty("error") String error,
                            @JsonProperty("model_digest") String modelDigest,
                            @JsonProperty("batch_size") int batchSize,
                            @JsonProperty("queued_ms") double queuedMs,
                            @JsonProperty("inference_ms") double inferenceMs,
                            @JsonProperty("input_ms") double inputMs) implements CarriesTensor<ResultMessage> {

    public static final String SUCCEEDED = "SUCCEEDED";
    public static final String FAILED = "FAILED";

    /** Without the input stage (a gateway from before {@code input_ms}: it reads as 0). */
    public ResultMessage(String taskId, String deviceId, String credential, String status, Tensor output, String error,
                         String modelDigest, int batchSize, double queuedMs, double inferenceMs) {
        this(taskId, deviceId, credential, status, output, error, modelDigest, batchSize, queuedMs, inferenceMs, 0);
    }

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
                queuedMs, inferenceMs, inputMs);
    }

    public ResultMessage signedWith(String newCredential) {
        return new ResultMessage(taskId, deviceId, newCredential, status, output, error, modelDigest, batchSize,
                queuedMs, inferenceMs, inputMs);
    }
}
