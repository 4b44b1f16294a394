package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import io.vertx.core.Vertx;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File watches end to end: a real broker (the machine's Mosquitto, else embedded Moquette), the gateway (in this
 * JVM, or as its own process where it is killed), files written into its data directory, and the cloud reading
 * {@link FileEvent}s off the device's {@code files} topic.
 */
class FileWatchTest {

    @TempDir
    Path state;

    private final Vertx vertx = Vertx.vertx();
    private final Topics topics = TestBrokers.freshTopics();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<FileEvent> received = new CopyOnWriteArrayList<>();
    private Brokers.Broker broker;
    private CloudSide cloud;
    private String id;
    private TcpProxy proxy;

    @BeforeEach
    void connect() throws Exception {
        broker = TestBrokers.shared();
        cloud = track(new CloudSide(vertx, broker.host(), broker.port(), topics));
        id = TestBrokers.freshId("gw-files");
        proxy = track(new TcpProxy(vertx, broker.host(), broker.port()));
        MqttLink listener = track(new MqttLink(vertx, MqttLink.Options.persistent(broker.host(), broker.port(),
                TestBrokers.freshId("files-listener")).withCleanSession(true)));
        listener.subscribe(topics.files(id), 1, m -> {
            m.ack();
            received.add(Wire.decode(m.payload(), FileEvent.class));
        });
        listener.start().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void closeAll() throws Exception {
        processes.forEach(Process::destroyForcibly);
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shouldSendAHalfWrittenFileOnlyOnceItStoppedChangingAndNeverAnIgnoredOne() throws Exception {
        EdgeGateway gw = startGateway();
        watch(new FileWatch("w1", "incoming", "*.tif", List.of("*.part", "*.tmp"), 1, null, 0, 0));
        Path dir = Files.createDirectories(data().resolve("incoming"));

        Path image = dir.resolve("scan-1.tif");
        try (OutputStream out = Files.newOutputStream(image)) {
            for (int i = 0; i < 8; i++) { // 2.4 s of writing, longer than the watch's 1 s of stability
                out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(300); // the period under test: a slow writer, the file not yet stable
            }
        }
        assertThat(received).as("events while the file was being written").isEmpty();
        Files.writeString(dir.resolve("scan-2.tif.part"), "temporary");
        Files.writeString(dir.resolve("scan-3.tmp"), "temporary");
        Files.writeString(dir.resolve("notes.txt"), "not a tif");

        assertThat(Await.until(Duration.ofSeconds(20), () -> received.size() == 1)).isTrue();
        // the ignored and unmatched files have time to be seen stable: they must not come
        Await.holdsFor("only scan-1's event", Duration.ofMillis(2500), () -> assertThat(received).hasSize(1));
        assertThat(received).singleElement().satisfies(e -> {
            assertThat(e.watchId()).isEqualTo("w1");
            assertThat(e.files()).singleElement().satisfies(f -> {
                assertThat(f.path()).isEqualTo("incoming/scan-1.tif");
                assertThat(f.size()).isEqualTo(Files.size(image));
                assertThat(f.sha256()).isEqualTo(sha256(image));
            });
            assertThat(e.eventId()).isEqualTo(e.files().getFirst().fileId());
        });
        assertThat(gw.undeliveredFileEvents()).isZero();
    }

    @Test
    void shouldSendAFileInMarkerModeOnlyWhenItsMarkerAppears() throws Exception {
        startGateway();
        watch(new FileWatch("w1", "incoming", "*.h5", List.of(), 0, ".done", 0, 0));
        Path dir = Files.createDirectories(data().resolve("incoming"));
        Files.writeString(dir.resolve("run-7.h5"), "frames");

        Await.holdsFor("no event before the marker", Duration.ofSeconds(2), () -> assertThat(received).as("no marker yet").isEmpty());
        Files.writeString(dir.resolve("run-7.h5.done"), "");

        assertThat(Await.until(Duration.ofSeconds(20), () -> !received.isEmpty())).isTrue();
        Await.holdsFor("one event for the marked file", Duration.ofSeconds(1), () -> assertThat(received).hasSize(1));
        assertThat(received).singleElement()
                .satisfies(e -> assertThat(e.files()).extracting(FileEvent.WatchedFile::path).containsExactly("incoming/run-7.h5"));
    }

    @Test
    void shouldDeliverEachFileOnceAfterReconnectingWhenFilesArrivedWhileTheLinkWasCut() throws Exception {
        EdgeGateway gw = startGateway();
        watch(new FileWatch("w1", "", "*.dat", List.of(), 0, ".done", 0, 0));
        Path kept = state.resolve(id).resolve("watches.json"); // written once the watcher has the list
        await("the gateway to take the watch list (" + kept + ")").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20)).until(() -> Files.exists(kept));
        proxy.cut();
        Await.until(Duration.ofSeconds(10), () -> !gw.connected());
        List<String> names = writeMarked(data(), "f", 20);

        assertThat(Await.until(Duration.ofSeconds(20), () -> gw.undeliveredFileEvents() == 20))
                .as("kept while offline: %d", gw.undeliveredFileEvents()).isTrue();
        assertThat(received).isEmpty();
        proxy.heal();

        assertThat(Await.until(Duration.ofSeconds(30), () -> received.size() >= 20)).isTrue();
        Await.holdsFor("one event per file, no copy", Duration.ofMillis(1500),
                () -> assertThat(countsByPath()).containsOnlyKeys(names).allSatisfy((path, n) -> assertThat(n).isEqualTo(1)));
        assertThat(gw.undeliveredFileEvents()).isZero();
    }

    @Test
    void shouldDeliverEventsKeptOnDiskOnceWhenAKilledGatewayProcessStartsAgain() throws Exception {
        proxy.cut(); // the gateway cannot reach the broker: its events stay in its outbox
        // the watch list it kept from an earlier connection
        Path kept = state.resolve(id).resolve("watches.json");
        Files.createDirectories(kept.getParent());
        Files.createDirectories(data());
        Files.write(kept, Wire.encode(new FileWatch.Watches(List.of(
                new FileWatch("w1", "", "*.dat", List.of(), 0, ".done", 0, 0)))));
        Process first = gatewayProcess();
        List<String> names = writeMarked(data(), "k", 15);
        Path log = state.resolve(id).resolve("files").resolve("file-events.log");
        assertThat(Await.until(Duration.ofSeconds(30), () -> logMentionsAll(log, names)))
                .as("all 15 events in the outbox").isTrue();

        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no clean stop
        for (String name : names) { // gone from the directory: only the outbox can still deliver them
            Files.delete(data().resolve(name));
            Files.delete(data().resolve(name + ".done"));
        }
        proxy.heal();
        gatewayProcess();

        assertThat(Await.until(Duration.ofSeconds(60), () -> received.size() >= 15)).isTrue();
        Await.holdsFor("one event per file, no copy", Duration.ofMillis(1500),
                () -> assertThat(countsByPath()).containsOnlyKeys(names).allSatisfy((path, n) -> assertThat(n).isEqualTo(1)));
    }

    @Test
    void shouldSendCompleteFilesInBatchesOfNAndTheRestWhenTheWindowCloses() throws Exception {
        startGateway();
        watch(new FileWatch("w1", "batch", "*.dat", List.of(), 0, ".done", 5, 3));
        Path dir = Files.createDirectories(data().resolve("batch"));
        List<String> names = writeMarked(dir, "b", 12).stream().map(n -> "batch/" + n).toList();

        assertThat(Await.until(Duration.ofSeconds(30),
                () -> received.stream().mapToInt(e -> e.files().size()).sum() >= 12)).isTrue();
        Await.holdsFor("three batches of 5, 5 and 2 files", Duration.ofSeconds(1),
                () -> assertThat(received).extracting(e -> e.files().size()).containsExactly(5, 5, 2));
        assertThat(received).allSatisfy(e -> assertThat(e.eventId()).startsWith("batch:"));
        assertThat(countsByPath()).containsOnlyKeys(names).allSatisfy((path, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void shouldRefuseAWatchedPathOutsideTheDataDirectory() throws Exception {
        EdgeGateway gw = startGateway();
        Path outside = Files.createDirectories(state.resolve("outside"));
        Files.createDirectories(data());
        Files.createSymbolicLink(data().resolve("escape"), outside);
        watch(new FileWatch("up", "../outside", "*", List.of(), 0, null, 0, 0),
                new FileWatch("link", "escape", "*", List.of(), 0, null, 0, 0),
                new FileWatch("fine", "inside", "*", List.of(), 0, null, 0, 0));
        Files.writeString(outside.resolve("secret.txt"), "not for the cloud");

        assertThat(Await.until(Duration.ofSeconds(20), () -> gw.refusedWatches().size() == 2)).isTrue();
        assertThat(gw.refusedWatches()).extracting(r -> r.watchId()).containsExactlyInAnyOrder("up", "link");
        Files.createDirectories(data().resolve("inside"));
        Files.writeString(data().resolve("inside").resolve("ok.txt"), "fine");
        assertThat(Await.until(Duration.ofSeconds(20), () -> !received.isEmpty())).isTrue();
        Await.holdsFor("only the fine watch's event", Duration.ofSeconds(1),
                () -> assertThat(received).extracting(FileEvent::watchId).containsExactly("fine"));
    }

    private EdgeGateway startGateway() throws Exception {
        GatewayConfig config = GatewayConfig.of(id, "127.0.0.1", proxy.port(), state.resolve(id),
                        cloud.credentials.bootstrapToken(id))
                .withTopics(topics)
                .withHeartbeat(Duration.ofMillis(500), 2)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false))
                .withGpus(List::of)
                .withDataDir(data());
        EdgeGateway gw = track(new EdgeGateway(config, vertx, Clock.systemUTC()));
        gw.start().get(10, TimeUnit.SECONDS);
        return gw;
    }

    private Process gatewayProcess() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EdgeGatewayMain.class.getName(),
                "--device-id", id, "--broker", "127.0.0.1:" + proxy.port(),
                "--state-dir", state.resolve(id).toString(), "--data-dir", data().toString(),
                "--topic-root", topics.root(), "--keep-alive-seconds", "2",
                "--bootstrap-token", cloud.credentials.bootstrapToken(id))
                .redirectErrorStream(true).redirectOutput(state.resolve(id + "-" + processes.size() + ".log").toFile())
                .start();
        processes.add(p);
        return p;
    }

    private Path data() {
        return state.resolve("data");
    }

    /** What the engine does for its file triggers: the gateway's whole watch list, retained. */
    private void watch(FileWatch... watches) throws Exception {
        cloud.link.publish(topics.watches(id), Wire.encode(new FileWatch.Watches(List.of(watches))), true)
                .get(10, TimeUnit.SECONDS);
    }

    /** Files written at once with their markers: complete the moment the marker exists. */
    private static List<String> writeMarked(Path dir, String prefix, int n) throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = prefix + "-" + i + ".dat";
            Files.writeString(dir.resolve(name), name + " content");
            Files.writeString(dir.resolve(name + ".done"), "", StandardOpenOption.CREATE);
            names.add(name);
        }
        return names;
    }

    private Map<String, Long> countsByPath() {
        return received.stream().flatMap(e -> e.files().stream())
                .collect(Collectors.groupingBy(FileEvent.WatchedFile::path, ConcurrentHashMap::new, Collectors.counting()));
    }

    private static boolean logMentionsAll(Path log, List<String> names) {
        try {
            String text = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
            return names.stream().allMatch(n -> text.contains("\"" + n + "\""));
        } catch (Exception e) {
            return false;
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }
}
