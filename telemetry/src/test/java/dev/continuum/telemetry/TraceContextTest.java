package dev.continuum.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceContextTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    @Test
    void shouldMakeTheCallersSpanTheRemoteParentWhenTheHeadersNameOne() {
        Context parent = TraceContext.extract(Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=1")::get);

        SpanContext caller = Span.fromContext(parent).getSpanContext();
        assertThat(caller.isRemote()).isTrue();
        assertThat(caller.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(caller.getSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(caller.getTraceState().get("vendor")).isEqualTo("1");
    }

    @Test
    void shouldGiveTheRootContextWhenTheHeadersNameNoSpanOrAMalformedOne() {
        assertThat(TraceContext.extract(name -> null)).isSameAs(Context.root());
        assertThat(TraceContext.extract(Map.of("traceparent", "00-not-a-trace-01")::get)).isSameAs(Context.root());
    }

    @Test
    void shouldWriteTheHeadersItReadsBack() {
        Context parent = TraceContext.extract(Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=1")::get);

        assertThat(TraceContext.headers(parent)).isEqualTo(Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=1"));
        assertThat(TraceContext.headers(Context.root())).isEmpty();
    }
}
