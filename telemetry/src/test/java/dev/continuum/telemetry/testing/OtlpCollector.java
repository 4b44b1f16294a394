package dev.continuum.telemetry.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.Span;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The OTLP/HTTP collector of every test that follows spans out of a process: takes {@code POST /v1/traces} (protobuf)
 * as a collector would, decodes it as the OTLP it must be, and keeps every span with the resource of the process that
 * sent it. Point {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or Quarkus' {@code QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT}, with
 * {@code http/protobuf}) at {@link #url()}. The test-jar of continuum-telemetry; users add opentelemetry-proto.
 */
public final class OtlpCollector implements AutoCloseable {

    /** One span as received, with the {@code service.name} and the other resource attributes of its process. */
    public record Received(String service, Map<String, String> resource, Span span) {
        public String traceId() {
            return hex(span.getTraceId().toByteArray());
        }

        public String spanId() {
            return hex(span.getSpanId().toByteArray());
        }

        public String parentSpanId() {
            return hex(span.getParentSpanId().toByteArray());
        }

        /** The span's string (or other, as text) attribute {@code key}; null when it has none. */
        public String attribute(String key) {
            return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).findFirst()
                    .map(a -> a.getValue().hasStringValue() ? a.getValue().getStringValue()
                            : a.getValue().hasIntValue() ? String.valueOf(a.getValue().getIntValue())
                            : a.getValue().toString().strip()).orElse(null);
        }
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final List<ResourceSpans> resourceSpans = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private final List<String> paths = new CopyOnWriteArrayList<>();

    private OtlpCollector(HttpServer server) {
        this.server = server;
    }

    /** A collector on a free port of 127.0.0.1. */
    public static OtlpCollector start() throws IOException {
        OtlpCollector collector = new OtlpCollector(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
        collector.server.createContext("/", exchange -> {
            try (exchange) {
                collector.paths.add(exchange.getRequestURI().getPath());
                collector.contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
                try {
                    collector.take(ExportTraceServiceRequest.parseFrom(exchange.getRequestBody().readAllBytes()));
                } catch (IOException notOtlp) {
                    exchange.sendResponseHeaders(400, -1);
                    return;
                }
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.server.start();
        return collector;
    }

    private void take(ExportTraceServiceRequest export) {
        for (ResourceSpans r : export.getResourceSpansList()) {
            resourceSpans.add(r);
            Map<String, String> resource = r.getResource().getAttributesList().stream().collect(Collectors.toMap(
                    a -> a.getKey(), a -> a.getValue().getStringValue(), (a, b) -> b));
            String service = resource.getOrDefault("service.name", "?");
            r.getScopeSpansList().forEach(scope -> scope.getSpansList()
                    .forEach(span -> spans.add(new Received(service, resource, span))));
        }
    }

    /** The base URL an exporter is given ({@code /v1/traces} is appended by it). */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far. */
    public List<Received> spans() {
        return List.copyOf(spans);
    }

    /** Every export as it came, resource by resource. */
    public List<ResourceSpans> resourceSpans() {
        return List.copyOf(resourceSpans);
    }

    /** The Content-Type of each export request. */
    public List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    /** The path of each export request. */
    public List<String> paths() {
        return List.copyOf(paths);
    }

    /** The first span {@code service} sent whose name starts with {@code spanName}. */
    public Optional<Received> first(String service, String spanName) {
        return spans.stream().filter(r -> r.service().equals(service) && r.span().getName().startsWith(spanName)).findFirst();
    }

    /** Waits up to {@code limit} for {@code done} to hold over the spans received; says whether it did. */
    public boolean await(Duration limit, Predicate<List<Received>> done) throws InterruptedException {
        try {
            Awaitility.await("the collector's spans as expected").atMost(limit).pollInterval(Duration.ofMillis(100))
                    .until(() -> done.test(spans()));
            return true;
        } catch (ConditionTimeoutException timedOut) {
            return false;
        }
    }

    /** What it holds, for an assertion's message. */
    public String describe() {
        return spans.stream().map(r -> r.service() + ": " + r.span().getName() + " " + r.traceId()).toList().toString();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
