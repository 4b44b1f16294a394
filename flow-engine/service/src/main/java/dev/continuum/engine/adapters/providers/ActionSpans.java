package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.domain.RunTrace;
import dev.continuum.telemetry.TraceContext;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Map;
import java.util.UUID;

/**
 * The engine's span of one call to an action provider, in its run's trace ({@link RunTrace}), and the W3C trace
 * context headers the call carries so that the provider's span is its child. With tracing off (the default,
 * {@code quarkus.otel.sdk.disabled=true}) nothing is recorded, and the headers still name the run's trace.
 */
@ApplicationScoped
public class ActionSpans {

    private final Tracer tracer;
    private final boolean recording;

    /** Spans as {@code telemetry} records them (tests). */
    public ActionSpans(OpenTelemetry telemetry) {
        this(telemetry, false, true);
    }

    /**
     * With the SDK disabled Quarkus still hands out an SDK whose tracer builds (and drops) real spans, so whether any
     * is recorded is read from the same settings it reads.
     */
    @Inject
    public ActionSpans(OpenTelemetry telemetry,
                       @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkDisabled,
                       @ConfigProperty(name = "quarkus.otel.traces.enabled", defaultValue = "true") boolean tracesEnabled) {
        this.tracer = telemetry.getTracer("dev.continuum.engine");
        this.recording = !sdkDisabled && tracesEnabled;
    }

    /**
     * Whether calls' spans are recorded (tracing on). A call in process sends no headers, so with tracing off it
     * needs no span at all; a call over HTTP always carries the run's trace context.
     */
    public boolean recording() {
        return recording;
    }

    /** One call: its span, and the headers to send with it. */
    public record Call(Span span, Map<String, String> headers) {
        void end(Throwable failure) {
            if (failure != null) {
                span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
            }
            span.end();
        }
    }

    /** Starts the span of {@code operation} ({@code run}, {@code status}, {@code cancel}, {@code release}). */
    public Call start(UUID runId, String operation, String actionUrl) {
        RunTrace trace = RunTrace.of(runId);
        Context run = Context.root().with(Span.wrap(SpanContext.createFromRemoteParent(trace.traceId(),
                trace.rootSpanId(), TraceFlags.getSampled(), TraceState.getDefault())));
        Span span = tracer.spanBuilder("action " + operation).setParent(run).setSpanKind(SpanKind.CLIENT)
                .setAttribute("continuum.run_id", runId.toString())
                .setAttribute("continuum.action_url", actionUrl)
                .startSpan();
        return new Call(span, TraceContext.headers(run.with(span)));
    }
}
