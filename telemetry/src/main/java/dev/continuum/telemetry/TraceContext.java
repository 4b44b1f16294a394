package dev.continuum.telemetry;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * W3C Trace Context ({@code traceparent}, {@code tracestate}) read from what a process receives and written into what
 * it sends: HTTP headers, a task's or a storage request's fields. OpenTelemetry's own W3C propagator, whatever
 * propagators the process configured: every Continuum process speaks W3C. Uses the OpenTelemetry API only.
 */
public final class TraceContext {

    /** The carrier is the caller's lookup by name; the propagator asks for {@code traceparent} and {@code tracestate}. */
    private static final TextMapGetter<Function<String, String>> BY_NAME = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> header) {
            return W3CTraceContextPropagator.getInstance().fields();
        }

        @Override
        public String get(Function<String, String> header, String name) {
            return header == null ? null : header.apply(name);
        }
    };

    private TraceContext() {}

    /**
     * The context whose parent is the remote span that {@code header} (a lookup by name, null for an absent one)
     * names; the root context when it names none or a malformed one, so that a span started in it starts a new trace.
     */
    public static Context extract(Function<String, String> header) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), header, BY_NAME);
    }

    /**
     * The fields that make the receiver's spans children of {@code context}'s span: {@code traceparent}, and
     * {@code tracestate} when there is one; none when {@code context} has no valid span.
     */
    public static Map<String, String> headers(Context context) {
        Map<String, String> headers = new HashMap<>();
        W3CTraceContextPropagator.getInstance().inject(context, headers, Map::put);
        return headers;
    }
}
