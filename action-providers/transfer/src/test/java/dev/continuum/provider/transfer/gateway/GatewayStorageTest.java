package dev.continuum.provider.transfer.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.endpoint.Storage;
import dev.continuum.provider.transfer.engine.Progress;
import dev.continuum.provider.transfer.engine.TransferEngine;
import dev.continuum.provider.transfer.engine.TransferFailedException;
import dev.continuum.provider.transfer.engine.TransferItem;
import dev.continuum.provider.transfer.engine.TransferJournal;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;
import dev.continuum.provider.transfer.testing.FaultyStorage;
import dev.continuum.provider.transfer.testing.Trees;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A device's storage reached through the real test broker (TestBrokers: embedded unless one is chosen). */
class GatewayStorageTest {

    private static final int MIB = 1024 * 1024;

    @TempDir Path tmp;

    private final BrokeredStorage brokered = new BrokeredStorage();
    private final String root = brokered.root;
    private final String device = brokered.device;
    private final List<String> events = new ArrayList<>();
    private final TransferEngine engine = new TransferEngine(TransferOptions.defaults().withChunkBytes(5 * MIB));

    private GatewayStorageServer device(Path dir, boolean readOnly) {
        return brokered.device(dir, readOnly, 2, OpenTelemetry.noop());
    }

    private MqttGatewayStorage cloud() {
        return brokered.cloud();
    }

    private Progress.Snapshot copy(Storage src, String from, Storage dst, String to, TransferJournal journal) {
        return engine.run(src, dst, List.of(new TransferItem(PathNormalizer.normalize(from), PathNormalizer.normalize(to), true)),
                null, journal, new Progress(), (code, text) -> events.add(code + ": " + text), new AtomicBoolean());
    }

    @AfterEach
    void close() throws Exception {
        brokered.close();
    }

    @Test
    void shouldCopyATreeFromADevicesStorageToADatacenterDirectoryWithIdenticalContent() {
        Trees.sample(tmp.resolve("device/run-42"));
        device(tmp.resolve("device"), true);

        Progress.Snapshot result = copy(cloud(), "/run-42", new LocalStorage(tmp.resolve("dc")), "/incoming/run-42",
                TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("dc/incoming/run-42"))).isEqualTo(Trees.digest(tmp.resolve("device/run-42")));
        assertThat(result.filesDone()).isEqualTo(4);
    }

    @Test
    void shouldFetchManySmallFilesFromADeviceInBatchesNotOneRequestEach() {
        for (int i = 0; i < 300; i++) {
            Trees.file(tmp.resolve("device/frames/f" + i + ".bin"), 1000 + i * 37L, i);
        }
        GatewayStorageServer server = device(tmp.resolve("device"), true);

        Progress.Snapshot result = copy(cloud(), "/frames", new LocalStorage(tmp.resolve("dc")), "/frames",
                TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("dc/frames"))).isEqualTo(Trees.digest(tmp.resolve("device/frames")));
        assertThat(result.filesDone()).isEqualTo(300);
        assertThat(server.requestsServed()).isLessThan(60);   // one per file would be 300 and more
    }

    @Test
    void shouldWriteATreeIntoADevicesStorageWithIdenticalContent() {
        Trees.sample(tmp.resolve("dc/model"));
        device(tmp.resolve("device"), false);

        copy(new LocalStorage(tmp.resolve("dc")), "/model", cloud(), "/models/v2", TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("device/models/v2"))).isEqualTo(Trees.digest(tmp.resolve("dc/model")));
        assertThat(new LocalStorage(tmp.resolve("device")).root().resolve("models/v2").toFile().list())
                .noneMatch(name -> name.endsWith(".continuum-part"));
    }

    @Test
    void shouldDetectAChunkCorruptedOnTheWayByTheHashTheDeviceComputesAndSendItAgain() {
        Trees.sample(tmp.resolve("dc/data"));
        device(tmp.resolve("device"), false);
        FaultyStorage corrupting = new FaultyStorage(cloud(), 1, Integer.MAX_VALUE);

        Progress.Snapshot result = copy(new LocalStorage(tmp.resolve("dc")), "/data", corrupting, "/data",
                TransferJournal.open(tmp.resolve("j")));

        assertThat(Trees.digest(tmp.resolve("device/data"))).isEqualTo(Trees.digest(tmp.resolve("dc/data")));
        assertThat(result.checksumMismatches()).isEqualTo(1);
        assertThat(events).anyMatch(e -> e.startsWith("ChecksumMismatch") && e.contains("destination holds"));
    }

    @Test
    void shouldResumeIntoADevicesStorageAfterTheGatewayRestartsWithoutResendingVerifiedChunks() {
        Trees.file(tmp.resolve("dc/big.bin"), 23L * MIB, 7);
        GatewayStorageServer first = device(tmp.resolve("device"), false);
        Path journal = tmp.resolve("j");
        FaultyStorage dying = new FaultyStorage(cloud(), 0, 2);
        assertThatThrownBy(() -> copy(new LocalStorage(tmp.resolve("dc")), "/big.bin", dying, "/big.bin", TransferJournal.open(journal)))
                .isInstanceOf(TransferFailedException.class);
        first.crash();
        device(tmp.resolve("device"), false);   // the gateway comes back: its partial file is still on disk

        FaultyStorage healthy = new FaultyStorage(cloud(), 0, Integer.MAX_VALUE);
        Progress.Snapshot second = copy(new LocalStorage(tmp.resolve("dc")), "/big.bin", healthy, "/big.bin", TransferJournal.open(journal));

        assertThat(Trees.digest(tmp.resolve("device"))).containsEntry("big.bin", Trees.digest(tmp.resolve("dc")).get("big.bin"));
        assertThat(second.bytesResumed()).isEqualTo(10L * MIB);
        assertThat((long) healthy.bytesWritten.get()).isEqualTo(13L * MIB);
    }

    @Test
    void shouldRefuseWritesToAReadOnlyDevice() {
        device(tmp.resolve("device"), true);
        MqttGatewayStorage storage = cloud();

        assertThatThrownBy(() -> storage.mkdirs(PathNormalizer.normalize("/x")))
                .isInstanceOf(IOException.class).hasMessageContaining("read-only");
        assertThat(tmp.resolve("device/x")).doesNotExist();
    }

    @Test
    void shouldRefuseASymlinkLeadingOutOfTheDevicesRoot() throws IOException {
        Files.createDirectories(tmp.resolve("device"));
        Files.writeString(tmp.resolve("secret"), "not for the cloud");
        Files.createSymbolicLink(tmp.resolve("device/escape"), tmp.resolve("secret"));
        device(tmp.resolve("device"), true);

        assertThatThrownBy(() -> cloud().read(PathNormalizer.normalize("/escape"), 0, java.nio.ByteBuffer.allocate(100)))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("outside");
    }

    @Test
    void shouldRefuseTraversalOnTheDeviceEvenWhenARequestSkipsTheProvidersChecks() throws Exception {
        Files.createDirectories(tmp.resolve("device"));
        Files.writeString(tmp.resolve("secret"), "not for the cloud");
        device(tmp.resolve("device"), false);
        Brokers.Broker b = TestBrokers.shared();
        String client = "hostile-" + device;
        CompletableFuture<StorageWire.Frame> reply = new CompletableFuture<>();
        MqttLink raw = MqttLink.standalone(MqttLink.Options.persistent(b.host(), b.port(), client).withCleanSession(true));
        brokered.closing(raw);
        raw.subscribe(StorageWire.replies(root, client), 1, m -> {
            m.ack();
            reply.complete(StorageWire.decode(m.payload()));
        });
        raw.start().get(10, TimeUnit.SECONDS);

        var h = StorageWire.header().put("id", 1).put("op", "read").put("path", "../secret").put("offset", 0)
                .put("length", 100).put("reply_to", StorageWire.replies(root, client));
        raw.publish(StorageWire.requests(root, device), StorageWire.encode(h, null), false).get(10, TimeUnit.SECONDS);

        StorageWire.Frame answer = reply.get(10, TimeUnit.SECONDS);
        assertThat(answer.header().path("ok").asBoolean()).isFalse();
        assertThat(answer.header().path("code").asText()).isEqualTo("UnsafePath");
        assertThat(new String(answer.body().array(), answer.body().arrayOffset(), answer.body().remaining(), StandardCharsets.UTF_8))
                .doesNotContain("not for the cloud");
    }

    @Test
    void shouldSayAGatewayIsOfflineOnceItsLinkDies() throws Exception {
        GatewayStorageServer server = device(tmp.resolve("device"), true);
        MqttGatewayStorage storage = cloud();
        assertThat(storage.stat(PathNormalizer.normalize("/")).isPresent()).isTrue();
        assertThat(storage.online()).isTrue();

        server.close();

        await("the cloud side to see the closed gateway offline").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50)).until(() -> !storage.online());
        assertThatThrownBy(() -> storage.stat(PathNormalizer.normalize("/"))).isInstanceOf(IOException.class)
                .hasMessageContaining("offline");
    }
}
