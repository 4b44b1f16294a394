package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.TestDatabase;
import dev.continuum.telemetry.OtlpTraces;
import dev.continuum.telemetry.testing.OtlpCollector;
import dev.continuum.telemetry.testing.OtlpCollector.Received;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run's trace across the three processes a user deploys: the engine (its own process), the inference provider
 * and an edge gateway (here in the test's JVM, each with the SDK their launchers install from the OTEL_* settings,
 * {@link OtlpTraces}), all exporting OTLP over HTTP to one collector this test plays ({@link OtlpCollector}). The engine's span of the
 * provider call, the provider's span of {@code POST /run} and the gateway's span of the task share the run's trace
 * id, each the child of the one before, each under its own service name.
 */
class TracedRunTest {

    @TempDir
    Path state;

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
        OtlpCollector collector = null;
        try (EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("trace-provider"),
                topics, credentials, Clock.systemUTC())) {
            collector = OtlpCollector.start();
            String collectorUrl = collector.url();
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

                OtlpCollector received = collector;
                assertThat(Await.until(Duration.ofSeconds(120), () -> received.first("continuum-edge-gateway", "gateway task").isPresent()
                        && received.first("continuum-inference-provider", "POST /run").isPresent()
                        && received.first("continuum-engine", "action run").isPresent()))
                        .as("the engine's, the provider's and the gateway's spans reached the collector; it has %s",
                                received.describe()).isTrue();

                Received call = received.first("continuum-engine", "action run").orElseThrow();
                Received providerRun = received.first("continuum-inference-provider", "POST /run").orElseThrow();
                Received task = received.first("continuum-edge-gateway", "gateway task").orElseThrow();

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
            if (collector != null) {
                collector.close();
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
}
