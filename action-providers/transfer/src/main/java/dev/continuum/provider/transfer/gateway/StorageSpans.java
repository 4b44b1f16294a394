package dev.continuum.provider.transfer.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.telemetry.TraceContext;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.nio.ByteBuffer;

/**
 * The device half's span of one storage request ({@code storage <op>}, with device, op, path and bytes), a child of
 * the {@code traceparent} the request's header carries (the provider's span that made it), so a transfer's or an
 * {@code ls}'s trace reaches the device. A request without one starts no trace of its own, as a gateway's task.
 */
final class StorageSpans {

    private final Tracer tracer;
    private final String deviceId;

    StorageSpans(OpenTelemetry telemetry, String deviceId) {
        this.tracer = telemetry.getTracer("dev.continuum.gateway-storage");
        this.deviceId = deviceId;
    }

    /** The span of {@code request}: recording when it came in a trace, else the invalid span (which records nothing). */
    Span start(StorageWire.Frame request) {
        Context parent = TraceContext.extract(name -> request.header().path(name).asText(null));
        if (!Span.fromContext(parent).getSpanContext().isValid()) {
            return Span.getInvalid();
        }
        String op = request.header().path("op").asText("");
        Span span = tracer.spanBuilder("storage " + op).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute("continuum.device_id", deviceId)
                .setAttribute("continuum.storage.op", op)
                .startSpan();
        if (request.header().has("path")) {
            span.setAttribute("continuum.storage.path", request.header().path("path").asText());
        }
        if (request.body().hasRemaining()) {
            span.setAttribute("continuum.storage.bytes_in", request.body().remaining());
        }
        return span;
    }

    /** Ends {@code span} with the reply: its bytes, and an error status with the reply's code when it refused. */
    static void end(Span span, JsonNode reply, ByteBuffer body) {
        if (body != null && body.hasRemaining()) {
            span.setAttribute("continuum.storage.bytes_out", body.remaining());
        }
        if (!reply.path("ok").asBoolean(false)) {
            span.setAttribute("continuum.storage.error_code", reply.path("code").asText());
            span.setStatus(StatusCode.ERROR, reply.path("error").asText(""));
        }
        span.end();
    }
}
