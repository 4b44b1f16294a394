package dev.continuum.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.telemetry.testing.OtlpCollector;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OtlpTracesTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    /** What a collector received on POST /v1/traces, decoded as the OTLP protobuf it must be. */
    private OtlpCollector collector;

    @BeforeEach
    void startCollector() throws Exception {
        collector = OtlpCollector.start();
    }

    @AfterEach
    void stopCollector() {
        collector.close();
    }

    @Test
    void shouldSendASpanInTheCallersTraceToTheConfiguredCollectorOverOtlpHttp() {
        OpenTelemetrySdk sdk = OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl()),
                "continuum-test-provider").orElseThrow();
        Context caller = TraceContext.extract(Map.of("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01")::get);
        Span span = sdk.getTracer("test").spanBuilder("POST /run").setParent(caller).startSpan();
        span.end();
        sdk.close(); // flushes the batch

        assertThat(collector.contentTypes()).containsOnly("application/x-protobuf");
        assertThat(collector.paths()).containsOnly("/v1/traces");
        ResourceSpans exported = collector.resourceSpans().getFirst();
        assertThat(exported.getResource().getAttributesList())
                .anyMatch(a -> a.getKey().equals("service.name") && a.getValue().getStringValue().equals("continuum-test-provider"));
        var sent = exported.getScopeSpans(0).getSpans(0);
        assertThat(sent.getName()).isEqualTo("POST /run");
        assertThat(HexFormat.of().formatHex(sent.getTraceId().toByteArray())).isEqualTo(TRACE_ID);
        assertThat(HexFormat.of().formatHex(sent.getParentSpanId().toByteArray())).isEqualTo(CALLER_SPAN);
    }

    @Test
    void shouldLetTheSettingsNameTheService() {
        OpenTelemetrySdk sdk = OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl(),
                "otel.service.name", "lab-7-gateway"), "continuum-edge-gateway").orElseThrow();
        sdk.getTracer("test").spanBuilder("task").startSpan().end();
        sdk.close();

        assertThat(collector.resourceSpans().getFirst().getResource().getAttributesList())
                .anyMatch(a -> a.getKey().equals("service.name") && a.getValue().getStringValue().equals("lab-7-gateway"));
    }

    @Test
    void shouldStayOffUnlessAnEndpointOrAnExplicitSdkDisabledFalseAsksForTraces() {
        assertThat(OtlpTraces.build(Map.of(), "p")).isEmpty();
        assertThat(OtlpTraces.build(Map.of("otel.service.name", "p"), "p")).isEmpty();
        assertThat(OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl(), "otel.sdk.disabled", "true"), "p"))
                .isEmpty();
        Optional<OpenTelemetrySdk> towardsTheDefault = OtlpTraces.build(Map.of("otel.sdk.disabled", "false"), "p");
        assertThat(towardsTheDefault).isPresent();
        towardsTheDefault.get().shutdown();
    }

    @Test
    void shouldStayOffForGrpcWhichTheJdkSenderCannotSpeak() {
        assertThat(OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl(),
                "otel.exporter.otlp.protocol", "grpc"), "p")).isEmpty();
    }

    @Test
    void shouldExportNothingWhenTheTracesExporterIsNone() {
        OpenTelemetrySdk sdk = OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl(),
                "otel.traces.exporter", "none"), "p").orElseThrow();
        sdk.getTracer("test").spanBuilder("quiet").startSpan().end();
        sdk.close();

        assertThat(collector.spans()).isEmpty();
    }

    @Test
    void shouldShipNoOkHttp() {
        assertThatThrownBy(() -> Class.forName("okhttp3.OkHttpClient")).isInstanceOf(ClassNotFoundException.class);
    }

    private String collectorUrl() {
        return collector.url();
    }
}
