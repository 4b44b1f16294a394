package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * One inference task for one device. {@code task_id} is the idempotency key: a gateway that sees
 * it twice runs it once. {@code model} is a digest ({@code sha256:...}), a name, or {@code name@version}.
 * Exactly one of {@code input} (inline tensor) and {@code input_ref} (a {@code file:} URI on the
 * device holding a tensor document) is set.
 */
public record TaskMessage(@JsonProperty("task_id") String taskId,
                          @JsonProperty("model") String model,
                          @JsonProperty("input") Tensor input,
                          @JsonProperty("input_ref") String inputRef,
                          @JsonProperty("deadline") String deadline,
                          @JsonProperty("sent_at") String sentAt) implements CarriesTensor<TaskMessage> {

    @JsonIgnore
    public boolean expiredAt(Instant now) {
        return deadline != null && !Instant.parse(deadline).isAfter(now);
    }

    public TaskMessage withInput(Tensor resolved) {
        return new TaskMessage(taskId, model, resolved, null, deadline, sentAt);
    }

    @Override
    public Tensor tensor() {
        return input;
    }

    @Override
    public TaskMessage withTensor(Tensor tensor) {
        return new TaskMessage(taskId, model, tensor, inputRef, deadline, sentAt);
    }
}
