package dev.continuum.provider.transfer.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.paths.PathNormalizer;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.engine.Progress;
import dev.continuum.provider.transfer.engine.TransferEngine;
import dev.continuum.provider.transfer.engine.TransferItem;
import dev.continuum.provider.transfer.engine.TransferJournal;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.testing.Trees;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device half's spans (docs/operations.md "Traces"): each storage request the provider makes inside a trace is a
 * span on the device, the child of the provider's span, through the real broker; one made outside a trace is none.
 */
class GatewayStorageSpansTest {

    private static final int MIB = 1024 * 1024;
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER = "00f067aa0ba902b7";

    @TempDir Path tmp;

    private final BrokeredStorage storage = new BrokeredStorage();
    private final String device = storage.device;
    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk deviceTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build();
    @AfterEach
    void close() throws Exception {
        storage.close();
        deviceTelemetry.close();
    }

    @Test
    void shouldRecordAStorageRequestAsASpanOnTheDeviceInTheCallersTrace() throws IOException {
        Files.writeString(Files.createDirectories(tmp.resolve("device/run-7")).resolve("frame.json"), "{}");
        device(false);

        try (Scope ignored = caller().makeCurrent()) {
            assertThat(cloud().list(PathNormalizer.normalize("/run-7"))).hasSize(1);
        }

        SpanData list = only("storage list");
        assertThat(list.getTraceId()).isEqualTo(TRACE);
        assertThat(list.getParentSpanId()).as("the child of the provider's span that asked").isEqualTo(CALLER);
        assertThat(list.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(list.getAttributes().get(AttributeKey.stringKey("continuum.device_id"))).isEqualTo(device);
        assertThat(list.getAttributes().get(AttributeKey.stringKey("continuum.storage.path"))).isEqualTo("run-7");
        assertThat(list.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
    }

    @Test
    void shouldKeepTheTraceAcrossTheTransferEnginesWorkersForEveryChunkWrittenToTheDevice() throws IOException {
        Trees.file(tmp.resolve("dc/model.bin"), 12L * MIB, 3); // three chunks of 5 MiB, sent by parallel workers
        device(false);
        TransferEngine engine = new TransferEngine(TransferOptions.defaults().withChunkBytes(5 * MIB).withParallelism(3));

        try (Scope ignored = caller().makeCurrent()) {
            engine.run(new LocalStorage(tmp.resolve("dc")), cloud(), List.of(new TransferItem(
                    PathNormalizer.normalize("/model.bin"), PathNormalizer.normalize("/models/model.bin"), false)),
                    null, TransferJournal.open(tmp.resolve("journal")), new Progress(), (code, text) -> { },
                    new AtomicBoolean());
        }

        assertThat(Files.size(tmp.resolve("device/models/model.bin"))).isEqualTo(12L * MIB);
        List<SpanData> spans = exported.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getName).contains("storage open", "storage commit")
                .filteredOn("storage write"::equals).hasSize(3);
        assertThat(spans).as("every request of the transfer, whichever thread sent it").allSatisfy(s -> {
            assertThat(s.getTraceId()).isEqualTo(TRACE);
            assertThat(s.getParentSpanId()).isEqualTo(CALLER);
        });
        assertThat(spans).filteredOn(s -> s.getName().equals("storage write"))
                .extracting(s -> s.getAttributes().get(AttributeKey.longKey("continuum.storage.bytes_in")))
                .containsExactlyInAnyOrder(5L * MIB, 5L * MIB, 2L * MIB);
    }

    @Test
    void shouldMarkARefusedRequestsSpanAsAnErrorWithItsCode() {
        device(true);

        try (Scope ignored = caller().makeCurrent()) {
            assertThatThrownBy(() -> cloud().mkdirs(PathNormalizer.normalize("/incoming"))).hasMessageContaining("read-only");
        }

        SpanData mkdirs = only("storage mkdirs");
        assertThat(mkdirs.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(mkdirs.getAttributes().get(AttributeKey.stringKey("continuum.storage.error_code"))).isEqualTo("ReadOnly");
    }

    @Test
    void shouldStartNoTraceOfItsOwnForARequestMadeOutsideATrace() throws IOException {
        Files.createDirectories(tmp.resolve("device"));
        GatewayStorageServer server = device(false);

        cloud().list(PathNormalizer.normalize("/"));

        assertThat(server.requestsServed()).isPositive();
        assertThat(exported.getFinishedSpanItems()).isEmpty();
    }

    private GatewayStorageServer device(boolean readOnly) {
        return storage.device(tmp.resolve("device"), readOnly, 3, deviceTelemetry);
    }

    private MqttGatewayStorage cloud() {
        return storage.cloud();
    }

    /** The provider's span the requests are made in (here a sampled remote one with known ids). */
    private static Context caller() {
        return Context.root().with(Span.wrap(SpanContext.createFromRemoteParent(TRACE, CALLER, TraceFlags.getSampled(),
                TraceState.getDefault())));
    }

    private SpanData only(String name) {
        List<SpanData> named = exported.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(named).as("spans named " + name + " among " + exported.getFinishedSpanItems()).hasSize(1);
        return named.getFirst();
    }
}
