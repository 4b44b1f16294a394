package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * One inference task for one device. {@code task_id} is the idempotency key: a gateway that sees
 * it twice runs it once. {@code model} is a digest ({@code sha256:...}), a name, or {@code name@version}.
 * Exactly one of {@code input} (inline tensor) and {@code input_ref} (a {@code file:} URI on the
 * device holding a tensor document) is set. {@code traceparent} is the W3C trace context of the provider's span
 * that sent the task (absent when untraced): the link speaks MQTT 3.1.1, which has no user properties, so the
 * trace context travels in the envelope, and the gateway's span of the task joins the run's trace.
 */
public record TaskMessage(@JsonProperty("task_id") String taskId,
                          @JsonProperty("model") String model,
                          @JsonProperty("input") Tensor input,
                          @JsonProperty("input_ref") String inputRef,
                          @JsonProperty("deadline") String deadline,
                          @JsonProperty("sent_at") String sentAt,
                          @JsonProperty("traceparent") String traceparent) implements CarriesTensor<TaskMessage> {

    /** An untraced task. */
    public TaskMessage(String taskId, String model, Tensor input, String inputRef, String deadline, String sentAt) {
        this(taskId, model, input, inputRef, deadline, sentAt, null);
    }

    /** The same task inside the trace of {@code value} (a W3C traceparent; null: untraced). */
    public TaskMessage withTraceparent(String value) {
        return new TaskMessage(taskId, model, input, inputRef, deadline, sentAt, value);
    }

    @JsonIgnore
    public boolean expiredAt(Instant now) {
        return deadline != null && !Instant.parse(deadline).isAfter(now);
    }

    public TaskMessage withInput(Tensor resolved) {
        return new TaskMessage(taskId, model, resolved, null, deadline, sentAt, traceparent);
    }

    @Override
    public Tensor tensor() {
        return input;
    }

    @Override
    public TaskMessage withTensor(Tensor tensor) {
        return new TaskMessage(taskId, model, tensor, inputRef, deadline, sentAt, traceparent);
    }
}
