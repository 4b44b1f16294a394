package dev.continuum.provider.server;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.CallContext;
import dev.continuum.provider.client.ClientOptions;
import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The caller's W3C trace context goes into the provider's span and on to the work the action hands out. */
class TraceContextTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private Vertx vertx;
    private ScriptedProvider provider;
    private RunningServer server;
    private ActionProviderClient client;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        provider = new ScriptedProvider();
        OpenTelemetrySdk telemetry = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
        server = RunningServer.start(vertx, router -> ActionProviderServer.mount(router, "/scripted", provider,
                ProviderServerOptions.of(vertx).withTelemetry(telemetry)));
        client = new ActionProviderClient(vertx, ClientOptions.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void shouldServeARunInsideTheCallersTraceAndHandItsSpanToTheAction() throws Exception {
        CallContext traced = CallContext.anonymous()
                .withTraceHeaders(Map.of("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01"));

        ActionStatus started = client.run(server.url("/scripted"),
                ActionRequest.of("t-1", json("{\"message\":\"m\",\"mode\":\"later\"}")), traced)
                .toCompletableFuture().get(10, TimeUnit.SECONDS);

        List<SpanData> finished = spans.getFinishedSpanItems();
        assertThat(finished).hasSize(1);
        SpanData run = finished.get(0);
        assertThat(run.getName()).isEqualTo("POST /run");
        assertThat(run.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(run.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(run.getParentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(provider.context(started.actionId()).traceparent())
                .contains("00-" + TRACE_ID + "-" + run.getSpanId() + "-01");
    }

    @Test
    void shouldStartNoTraceOfItsOwnWhenTheCallerSentNone() throws Exception {
        ActionStatus started = client.run(server.url("/scripted"),
                ActionRequest.of("t-2", json("{\"message\":\"m\",\"mode\":\"later\"}")), CallContext.anonymous())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);

        SpanData run = spans.getFinishedSpanItems().get(0);
        assertThat(run.getParentSpanContext().isValid()).isFalse();
        assertThat(provider.context(started.actionId()).traceparent()).contains("00-" + run.getTraceId() + "-"
                + run.getSpanId() + "-01");
    }
}
