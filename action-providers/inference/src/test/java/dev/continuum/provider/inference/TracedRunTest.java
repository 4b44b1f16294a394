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
import dev.continuum.telemetry.OtlpTraces;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run's trace across the three processes a user deploys: the engine (its own process), the inference provider
 * and an edge gateway (here in the test's JVM, each with the SDK their launchers install from the OTEL_* settings,
 * {@link OtlpTraces}), all exporting OTLP over HTTP to one collector this test plays. The engine's span of the
 * provider call, the provider's span of {@code POST /run} and the gateway's span of the task share the run's trace
 * id, each the child of the one before, each under its own service name.
 */
class TracedRunTest {

    @TempDir
    Path state;

    /** An OTLP/HTTP collector: every span it received, with the service.name of the process that sent it. */
    private final List<Received> collected = new CopyOnWriteArrayList<>();

    private record Received(String service, Span span) {
        String traceId() {
            return hex(span.getTraceId().toByteArray());
        }

        String spanId() {
            return hex(span.getSpanId().toByteArray());
        }

        String parentSpanId() {
            return hex(span.getParentSpanId().toByteArray());
        }
    }

    @Test
    void shouldTraceARunFromTheEngineThroughTheProviderToTheGateway() throws Exception {
        TestDatabase db = TestDatabase.create("edge_trace_");
        Vertx vertx = Vertx.vertx();
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = TestBrokers.freshTopics();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("trace test secret", Clock.systemUTC());
        int enginePort = Brokers.freePort();
        EngineProcess engine = null;
        OpenTelemetrySdk providerTelemetry = null;
        OpenTelemetrySdk gatewayTelemetry = null;
        try (EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("trace-provider"),
                topics, credentials, Clock.systemUTC())) {
            HttpServer collector = startCollector(vertx);
            String collectorUrl = "http://127.0.0.1:" + collector.actualPort();
            cloud.start().get(10, TimeUnit.SECONDS);
            providerTelemetry = exportingTo(collectorUrl, "continuum-inference-provider");
            gatewayTelemetry = exportingTo(collectorUrl, "continuum-edge-gateway");
            HttpServer server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx).withTelemetry(providerTelemetry));
            String gwId = TestBrokers.freshId("trace-gw");
            GatewayConfig cfg = GatewayConfig.of(gwId, broker.host(), broker.port(), state.resolve(gwId),
                    credentials.bootstrapToken(gwId)).withTopics(topics).withHeartbeat(Duration.ofMillis(300), 5)
                    .withGpus(List::of);
            try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC(), gatewayTelemetry)) {
                gw.models().deploy("ocr-cls", "1", gw.models().install(TestModels.ocrClassifier()));
                gw.start().get(10, TimeUnit.SECONDS);
                assertThat(Await.until(Duration.ofSeconds(15), () -> !cloud.fleet().usable().isEmpty())).isTrue();

                // what docs/operations.md tells an operator to set
                engine = EngineProcess.start(db, enginePort, state.resolve("engine.log"), Map.of(
                        "QUARKUS_OTEL_SDK_DISABLED", "false",
                        "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", collectorUrl,
                        "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                        "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms"));
                String runId = engine.startClassification(ServedInferenceProvider.url(server));
                String traceId = runId.replace("-", "");

                assertThat(Await.until(Duration.ofSeconds(120), () -> first("continuum-edge-gateway", "gateway task").isPresent()
                        && first("continuum-inference-provider", "POST /run").isPresent()
                        && first("continuum-engine", "action run").isPresent()))
                        .as("the engine's, the provider's and the gateway's spans reached the collector; it has %s",
                                collected.stream().map(r -> r.service() + ": " + r.span().getName()).toList()).isTrue();

                Received call = first("continuum-engine", "action run").orElseThrow();
                Received providerRun = first("continuum-inference-provider", "POST /run").orElseThrow();
                Received task = first("continuum-edge-gateway", "gateway task").orElseThrow();

                assertThat(call.traceId()).as("the engine's span is in the run's trace").isEqualTo(traceId);
                assertThat(providerRun.traceId()).isEqualTo(traceId);
                assertThat(providerRun.parentSpanId()).as("the provider's span is the child of the engine's call")
                        .isEqualTo(call.spanId());
                assertThat(task.traceId()).isEqualTo(traceId);
                assertThat(task.parentSpanId()).as("the gateway's span is the child of the provider's")
                        .isEqualTo(providerRun.spanId());
                assertThat(task.span().getAttributesList()).extracting(a -> a.getValue().getStringValue())
                        .contains(gwId, "SUCCEEDED");
            }
        } finally {
            if (engine != null) {
                engine.close();
            }
            for (OpenTelemetrySdk sdk : new OpenTelemetrySdk[] {providerTelemetry, gatewayTelemetry}) {
                if (sdk != null) {
                    sdk.close();
                }
            }
            vertx.close();
            db.close();
        }
    }

    /** What a provider's or gateway's launcher installs given OTEL_EXPORTER_OTLP_ENDPOINT (quick batches here). */
    private static OpenTelemetrySdk exportingTo(String collectorUrl, String service) {
        return OtlpTraces.build(Map.of("otel.exporter.otlp.endpoint", collectorUrl, "otel.bsp.schedule.delay", "200"),
                service).orElseThrow();
    }

    /** The first span {@code service} sent whose name starts with {@code spanName}. */
    private Optional<Received> first(String service, String spanName) {
        return collected.stream().filter(r -> r.service().equals(service) && r.span().getName().startsWith(spanName))
                .findFirst();
    }

    /** Takes {@code POST /v1/traces} (OTLP/HTTP, protobuf) as a collector would, keeping every span. */
    private HttpServer startCollector(Vertx vertx) throws Exception {
        return vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            try {
                ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(body.getBytes());
                export.getResourceSpansList().forEach(r -> {
                    String service = r.getResource().getAttributesList().stream()
                            .filter(a -> a.getKey().equals("service.name"))
                            .map(a -> a.getValue().getStringValue()).findFirst().orElse("?");
                    r.getScopeSpansList().forEach(scope -> scope.getSpansList()
                            .forEach(span -> collected.add(new Received(service, span))));
                });
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
