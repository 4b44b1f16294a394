package dev.continuum.edge.app;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.time.Instant;
import java.util.List;

/**
 * One span per task, from its arrival to its result, a child of the task's {@code traceparent} (the provider's
 * span that sent it), so a run's trace reaches the device. A task without one starts no trace of its own.
 */
final class TaskSpans {

    private static final TextMapGetter<TaskMessage> ENVELOPE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TaskMessage task) {
            return List.of("traceparent");
        }

        @Override
        public String get(TaskMessage task, String key) {
            return task != null && "traceparent".equals(key) ? task.traceparent() : null;
        }
    };

    private final Tracer tracer;
    private final String deviceId;

    TaskSpans(OpenTelemetry telemetry, String deviceId) {
        this.tracer = telemetry.getTracer("dev.continuum.edge-gateway");
        this.deviceId = deviceId;
    }

    void finished(TaskMessage task, Instant receivedAt, ResultMessage result) {
        if (task.traceparent() == null) {
            return;
        }
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), task, ENVELOPE);
        Span span = tracer.spanBuilder("gateway task " + task.model()).setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setStartTimestamp(receivedAt)
                .setAttribute("continuum.task_id", task.taskId())
                .setAttribute("continuum.device_id", deviceId)
                .setAttribute("continuum.model", task.model())
                .setAttribute("continuum.task_status", result.status())
                .startSpan();
        if (!result.succeeded()) {
            span.setStatus(StatusCode.ERROR, result.error() == null ? "" : result.error());
        }
        span.end();
    }
}
