package dev.continuum.telemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The OpenTelemetry SDK of a process that is not the engine (a provider, an edge gateway): its spans go over
 * OTLP/HTTP to the collector the standard OpenTelemetry settings name ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_SERVICE_NAME}, … or the {@code otel.*} system properties, which win), sent by the JDK's own HTTP
 * client. Off unless asked for, as the engine's traces are: an endpoint turns it on, {@code OTEL_SDK_DISABLED=false}
 * alone turns it on towards the default {@code http://localhost:4318}, {@code OTEL_SDK_DISABLED=true} or
 * {@code OTEL_TRACES_EXPORTER=none} keep it off (docs/operations.md "Traces").
 */
public final class OtlpTraces {

    /** The only protocol the JDK sender speaks; gRPC would need OkHttp or grpc-java on every gateway. */
    public static final String PROTOCOL = "http/protobuf";

    private static final System.Logger LOG = System.getLogger(OtlpTraces.class.getName());

    private OtlpTraces() {}

    /**
     * Installs, as {@link GlobalOpenTelemetry}, the SDK this process's settings ask for, flushed and closed when
     * the JVM stops; returns it, or the no-op when traces are off. Call it first in {@code main}, before anything
     * reads the global (which would fix it to the no-op).
     */
    public static OpenTelemetry installGlobal(String serviceName) {
        Optional<OpenTelemetrySdk> sdk = build(processSettings(), serviceName);
        if (sdk.isEmpty()) {
            return OpenTelemetry.noop();
        }
        try {
            GlobalOpenTelemetry.set(sdk.get());
        } catch (IllegalStateException alreadyRead) { // a second launcher in one JVM (tests), or a late call
            LOG.log(System.Logger.Level.WARNING, "traces of " + serviceName + " stay off: " + alreadyRead.getMessage());
            sdk.get().close();
            return GlobalOpenTelemetry.get();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(sdk.get()::close, "otel-shutdown"));
        return sdk.get();
    }

    /**
     * An SDK exporting traces as {@code settings} (keys as the SDK names them: {@code otel.exporter.otlp.endpoint})
     * ask, with {@code serviceName} unless they name one; empty when they leave traces off or ask for what this
     * process cannot do (gRPC, an exporter it does not ship), which is logged. The caller closes it.
     */
    public static Optional<OpenTelemetrySdk> build(Map<String, String> settings, String serviceName) {
        if (!enabled(settings)) {
            return Optional.empty();
        }
        String protocol = settings.getOrDefault("otel.exporter.otlp.traces.protocol",
                settings.getOrDefault("otel.exporter.otlp.protocol", PROTOCOL));
        if (!protocol.equals(PROTOCOL)) {
            LOG.log(System.Logger.Level.WARNING, "traces stay off: OTEL_EXPORTER_OTLP_PROTOCOL is " + protocol
                    + ", this process exports " + PROTOCOL + " only (point it at the collector's HTTP port, 4318)");
            return Optional.empty();
        }
        Map<String, String> defaults = Map.of(
                "otel.service.name", serviceName,
                "otel.exporter.otlp.protocol", PROTOCOL,
                // traces only: the processes' metrics are Prometheus' business, their logs their files'
                "otel.metrics.exporter", "none",
                "otel.logs.exporter", "none");
        try {
            return Optional.of(AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> defaults)
                    .addPropertiesCustomizer(fromProcess -> settings)
                    .disableShutdownHook()
                    .build().getOpenTelemetrySdk());
        } catch (ConfigurationException e) {
            LOG.log(System.Logger.Level.WARNING, "traces stay off: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** On with an endpoint or an explicit {@code otel.sdk.disabled=false}; an explicit {@code true} wins. */
    static boolean enabled(Map<String, String> settings) {
        String disabled = settings.getOrDefault("otel.sdk.disabled", "").trim().toLowerCase(Locale.ROOT);
        if (disabled.equals("true")) {
            return false;
        }
        boolean endpoint = !settings.getOrDefault("otel.exporter.otlp.endpoint", "").isBlank()
                || !settings.getOrDefault("otel.exporter.otlp.traces.endpoint", "").isBlank();
        return endpoint || disabled.equals("false");
    }

    /** {@code OTEL_*} variables as {@code otel.*} keys, then {@code otel.*} system properties over them. */
    static Map<String, String> processSettings() {
        Map<String, String> settings = new HashMap<>();
        System.getenv().forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                settings.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        System.getProperties().forEach((name, value) -> {
            if (name.toString().startsWith("otel.")) {
                settings.put(name.toString(), value.toString());
            }
        });
        return settings;
    }
}
