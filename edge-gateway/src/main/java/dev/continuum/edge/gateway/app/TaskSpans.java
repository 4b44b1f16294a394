package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.telemetry.TraceContext;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;

/**
 * One span per task, from its arrival to its result, a child of the task's {@code traceparent} (the provider's
 * span that sent it), so a run's trace reaches the device. A task without one starts no trace of its own.
 */
final class TaskSpans {

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
        Context parent = TraceContext.extract(name -> "traceparent".equals(name) ? task.traceparent() : null);
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
