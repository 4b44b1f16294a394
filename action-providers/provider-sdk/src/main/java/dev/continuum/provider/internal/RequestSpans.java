package dev.continuum.provider.internal;

import dev.continuum.telemetry.TraceContext;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * One server span per Action Provider API request, a child of the caller's W3C {@code traceparent} (the
 * propagator is OpenTelemetry's own, whatever the process configured: the engine always speaks W3C).
 */
final class RequestSpans {

    static final String INSTRUMENTATION = "dev.continuum.provider-sdk";

    private final Tracer tracer;

    RequestSpans(OpenTelemetry telemetry) {
        this.tracer = telemetry.getTracer(INSTRUMENTATION);
    }

    /** Starts the span of {@code rc}, named by its method and route template (e.g. {@code POST /run}). */
    Span start(RoutingContext rc, String route) {
        Context parent = TraceContext.extract(rc.request()::getHeader);
        String method = rc.request().method().name();
        return tracer.spanBuilder(method + " " + route).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute("http.request.method", method)
                .setAttribute("http.route", route)
                .startSpan();
    }

    /** Ends {@code span} with the answer's status (5xx: an error; a 4xx is the caller's). */
    static void end(Span span, int status) {
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }

    /** The W3C {@code traceparent} of the span current on this thread, if any is recording. */
    static Optional<String> currentTraceparent() {
        Context current = Context.current();
        if (!Span.fromContext(current).getSpanContext().isValid()) {
            return Optional.empty(); // what the propagator writes for no valid span, without its map (once per action)
        }
        return Optional.ofNullable(TraceContext.headers(current).get("traceparent"));
    }
}
