package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What `up` passes its providers and gateways of the collector it gave the engine. */
class ChildTracesTest {

    private static final Map<String, String> ENGINE_OVER_HTTP = Map.of(
            "QUARKUS_OTEL_SDK_DISABLED", "false",
            "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
            "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
            "QUARKUS_OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer t");

    @Test
    void shouldPassTheEnginesHttpCollectorToEachChildUnderItsOwnServiceName() {
        assertThat(ChildTraces.environment("continuum-transfer-provider", ENGINE_OVER_HTTP)).isEqualTo(Map.of(
                "OTEL_SERVICE_NAME", "continuum-transfer-provider",
                "OTEL_SDK_DISABLED", "false",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer t"));
        assertThat(ChildTraces.note(ENGINE_OVER_HTTP)).isEmpty();
    }

    @Test
    void shouldLeaveTheChildrenQuietWhenTheEnginesTracesAreOff() {
        assertThat(ChildTraces.environment("continuum-planner", Map.of()))
                .isEqualTo(Map.of("OTEL_SERVICE_NAME", "continuum-planner"));
        assertThat(ChildTraces.note(Map.of())).isEmpty();
    }

    @Test
    void shouldSayWhyTheChildrenStayQuietWhenTheEngineExportsOverGrpc() {
        Map<String, String> grpc = Map.of("QUARKUS_OTEL_SDK_DISABLED", "false",
                "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317");

        assertThat(ChildTraces.environment("continuum-inference-provider", grpc))
                .isEqualTo(Map.of("OTEL_SERVICE_NAME", "continuum-inference-provider"));
        assertThat(ChildTraces.note(grpc)).hasValueSatisfying(note ->
                assertThat(note).contains("QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"));
    }

    @Test
    void shouldLetOtelSettingsGivenToUpReachTheChildrenUnchanged() {
        Map<String, String> own = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://elsewhere:4318",
                "QUARKUS_OTEL_SDK_DISABLED", "false", "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");

        assertThat(ChildTraces.environment("continuum-training-provider", own)).as("inherited, not overridden")
                .isEqualTo(Map.of("OTEL_SERVICE_NAME", "continuum-training-provider"));
    }

    @Test
    void shouldMakeEachDeviceAnInstanceOfOneServiceKeepingTheResourceAttributesGivenToUp() {
        assertThat(ChildTraces.instanceOf("continuum-gateway-storage", "gw-1", Map.of("OTEL_RESOURCE_ATTRIBUTES", "site=lab-7")))
                .isEqualTo(Map.of("OTEL_SERVICE_NAME", "continuum-gateway-storage",
                        "OTEL_RESOURCE_ATTRIBUTES", "service.instance.id=gw-1,site=lab-7"));
        assertThat(ChildTraces.instanceOf("continuum-edge-gateway", "gw-2", Map.of()))
                .containsEntry("OTEL_RESOURCE_ATTRIBUTES", "service.instance.id=gw-2");
    }
}
