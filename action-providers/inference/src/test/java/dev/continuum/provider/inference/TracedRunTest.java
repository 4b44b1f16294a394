package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.app.EdgeGateway;
import dev.continuum.edge.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.testing.Await;
import dev.continuum.edge.testing.TestBrokers;
import dev.continuum.edge.testing.TestModels;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.TestDatabase;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run's trace across the three processes a user deploys: the engine (its own process, exporting OTLP over
 * HTTP to a collector this test plays), the inference provider and an edge gateway (here, each with an in-memory
 * exporter). The engine's span of the provider call, the provider's span of {@code POST /run} and the gateway's
 * span of the task share the run's trace id, each the child of the one before.
 */
class TracedRunTest {

    @TempDir
    Path state;

    /** An OTLP/HTTP collector: the engine's spans by span id, as the engine exported them. */
    private final Map<String, io.opentelemetry.proto.trace.v1.Span> engineSpans = new ConcurrentHashMap<>();

    @Test
    void shouldTraceARunFromTheEngineThroughTheProviderToTheGateway() throws Exception {
        TestDatabase db = TestDatabase.create("edge_trace_");
        Vertx vertx = Vertx.vertx();
        InMemorySpanExporter providerSpans = InMemorySpanExporter.create();
        InMemorySpanExporter gatewaySpans = InMemorySpanExporter.create();
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = TestBrokers.freshTopics();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("trace test secret", Clock.systemUTC());
        int enginePort = Brokers.freePort();
        EngineProcess engine = null;
        try (EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("trace-provider"),
                topics, credentials, Clock.systemUTC())) {
            HttpServer collector = startCollector(vertx);
            cloud.start().get(10, TimeUnit.SECONDS);
            HttpServer server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx).withTelemetry(telemetry(providerSpans)));
            String gwId = TestBrokers.freshId("trace-gw");
            GatewayConfig cfg = GatewayConfig.of(gwId, broker.host(), broker.port(), state.resolve(gwId),
                    credentials.bootstrapToken(gwId)).withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                    .withGpus(List::of);
            try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC(), telemetry(gatewaySpans))) {
                gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));
                gw.start().get(10, TimeUnit.SECONDS);
                assertThat(Await.until(Duration.ofSeconds(15), () -> !cloud.fleet().usable().isEmpty())).isTrue();

                // what docs/operations.md tells an operator to set
                engine = EngineProcess.start(db, enginePort, state.resolve("engine.log"), Map.of(
                        "QUARKUS_OTEL_SDK_DISABLED", "false",
                        "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.actualPort(),
                        "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                        "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms"));
                String runId = engine.startClassification(ServedInferenceProvider.url(server));
                String traceId = runId.replace("-", "");

                assertThat(Await.until(Duration.ofSeconds(60), () -> !gatewaySpans.getFinishedSpanItems().isEmpty()
                        && engineSpans.values().stream().anyMatch(s -> s.getName().equals("action run"))))
                        .as("spans of the engine, the provider and the gateway arrived").isTrue();

                io.opentelemetry.proto.trace.v1.Span call = engineSpans.values().stream()
                        .filter(s -> s.getName().equals("action run")).findFirst().orElseThrow();
                SpanData providerRun = providerSpans.getFinishedSpanItems().stream()
                        .filter(s -> s.getName().equals("POST /run")).findFirst().orElseThrow();
                SpanData task = gatewaySpans.getFinishedSpanItems().get(0);

                assertThat(hex(call.getTraceId().toByteArray())).as("the engine's span is in the run's trace").isEqualTo(traceId);
                assertThat(providerRun.getTraceId()).isEqualTo(traceId);
                assertThat(providerRun.getParentSpanId()).as("the provider's span is the child of the engine's call")
                        .isEqualTo(hex(call.getSpanId().toByteArray()));
                assertThat(task.getTraceId()).isEqualTo(traceId);
                assertThat(task.getParentSpanId()).as("the gateway's span is the child of the provider's")
                        .isEqualTo(providerRun.getSpanId());
                assertThat(task.getAttributes().asMap().values()).contains(gwId, "SUCCEEDED");
            }
        } finally {
            if (engine != null) {
                engine.close();
            }
            vertx.close();
            db.close();
        }
    }

    private static OpenTelemetrySdk telemetry(InMemorySpanExporter exporter) {
        return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    }

    /** Takes {@code POST /v1/traces} (OTLP/HTTP, protobuf) as a collector would, keeping every span. */
    private HttpServer startCollector(Vertx vertx) throws Exception {
        return vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            try {
                ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(body.getBytes());
                export.getResourceSpansList().forEach(r -> r.getScopeSpansList().forEach(scope ->
                        scope.getSpansList().forEach(s -> engineSpans.put(hex(s.getSpanId().toByteArray()), s))));
                request.response().putHeader("Content-Type", "application/x-protobuf").end();
            } catch (Exception e) {
                request.response().setStatusCode(400).end();
            }
        })).listen(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
