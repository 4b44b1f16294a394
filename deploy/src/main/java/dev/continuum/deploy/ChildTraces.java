package dev.continuum.deploy;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The collector {@code up} gives the engine ({@code QUARKUS_OTEL_*}, which the engine inherits) passed on to the
 * providers and gateways it starts, as the standard {@code OTEL_*} settings their launchers read (continuum-telemetry's
 * {@code OtlpTraces}, docs/operations.md "Traces"). Those processes export OTLP over HTTP only, so an engine left on
 * gRPC (Quarkus' default) keeps them quiet, and {@link #note} says so. {@code OTEL_*} settings given to {@code up}
 * itself reach every child unchanged and win.
 */
final class ChildTraces {

    static final String HTTP = "http/protobuf";

    private ChildTraces() {}

    /** The environment that names {@code service} and, when the engine's traces are on over HTTP, its collector. */
    static Map<String, String> environment(String service, Map<String, String> up) {
        Map<String, String> env = new HashMap<>();
        env.put("OTEL_SERVICE_NAME", service);
        if (ownOtelSettings(up) || !engineTracesOn(up) || !protocol(up).equals(HTTP)) {
            return env;
        }
        env.put("OTEL_SDK_DISABLED", "false");
        Optional.ofNullable(up.getOrDefault("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                up.get("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT"))).ifPresent(e -> env.put("OTEL_EXPORTER_OTLP_ENDPOINT", e));
        // a collector that wants a token gets it from the children too (an environment variable, never logged)
        Optional.ofNullable(up.getOrDefault("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_HEADERS",
                up.get("QUARKUS_OTEL_EXPORTER_OTLP_HEADERS"))).ifPresent(h -> env.put("OTEL_EXPORTER_OTLP_HEADERS", h));
        return env;
    }

    /**
     * The settings that make a child one instance of a shared service (each gateway of {@code continuum-edge-gateway},
     * each device's storage half of {@code continuum-gateway-storage}): its name, and {@code service.instance.id}
     * before any resource attributes {@code up} was given.
     */
    static Map<String, String> instanceOf(String service, String instance, Map<String, String> up) {
        return Map.of("OTEL_SERVICE_NAME", service, "OTEL_RESOURCE_ATTRIBUTES", "service.instance.id=" + instance
                + Optional.ofNullable(up.get("OTEL_RESOURCE_ATTRIBUTES")).map(more -> "," + more).orElse(""));
    }

    /** What {@code up} tells the user when the engine's spans go out and the other processes' cannot follow. */
    static Optional<String> note(Map<String, String> up) {
        if (ownOtelSettings(up) || !engineTracesOn(up) || protocol(up).equals(HTTP)) {
            return Optional.empty();
        }
        return Optional.of("the engine exports its spans over " + protocol(up) + "; providers and gateways speak OTLP "
                + "over HTTP only: set QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and the collector's HTTP "
                + "endpoint (port 4318) to have theirs too");
    }

    private static boolean engineTracesOn(Map<String, String> up) {
        return "false".equalsIgnoreCase(up.getOrDefault("QUARKUS_OTEL_SDK_DISABLED", "true").strip());
    }

    private static String protocol(Map<String, String> up) {
        return up.getOrDefault("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
                up.getOrDefault("QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")).strip();
    }

    private static boolean ownOtelSettings(Map<String, String> up) {
        return up.containsKey("OTEL_SDK_DISABLED") || up.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || up.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    }
}
