package dev.continuum.edge.gateway.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.CloudSide;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway process killed with SIGKILL (no clean stop, no DISCONNECT) while it holds tasks. With the
 * default durability ({@code BROKER}) the connected path never syncs the spool, so the test also throws
 * the spool away, as a power loss would: the tasks must come back from the broker's persistent session,
 * because the gateway acknowledged none of them before its result reached the broker.
 */
class GatewayCrashTest {

    @TempDir
    Path state;

    private final Vertx vertx = Vertx.vertx();
    private final Topics topics = TestBrokers.freshTopics();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        processes.forEach(Process::destroyForcibly);
        vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void shouldGetEveryTaskRedeliveredAndAnsweredWhenGatewayDiesAndLosesItsUnsyncedSpool() throws Exception {
        Brokers.Broker broker = TestBrokers.shared();
        String id = TestBrokers.freshId("gw-crash");
        Path model = TestModels.ocrClassifier();
        try (CloudSide cloud = new CloudSide(vertx, broker.host(), broker.port(), topics);
             MqttLink watcher = new MqttLink(vertx, MqttLink.Options.persistent(broker.host(), broker.port(),
                     TestBrokers.freshId("watcher")).withCleanSession(true))) {
            Map<String, Integer> results = new ConcurrentHashMap<>();
            Set<String> received = ConcurrentHashMap.newKeySet();
            watcher.subscribe(topics.results(id), 1, m -> {
                m.ack();
                ResultMessage r = Wire.decode(m.payload(), ResultMessage.class);
                if (r.succeeded()) {
                    results.merge(r.taskId(), 1, Integer::sum);
                }
            });
            // queued or running: the gateway has the task
            watcher.subscribe(topics.progress(id), 0, m -> received.add(Wire.decode(m.payload(), ProgressMessage.class).taskId()));
            watcher.start().get(10, TimeUnit.SECONDS);

            Process first = gateway(id, cloud, model);
            Await.until(Duration.ofSeconds(60), () -> cloud.fleet.device(id).map(d -> d.heartbeat() != null).orElse(false));
            // a 64-image task at the head keeps the worker busy while the small ones queue behind it
            List<String> ids = new ArrayList<>();
            publish(cloud, id, task("head", 64));
            ids.add("head");
            for (int i = 0; i < 5; i++) {
                publish(cloud, id, task("small-" + i, 1));
                ids.add("small-" + i);
            }
            // the small ones are queued behind the head: their "queued" says the gateway holds them
            Await.until(Duration.ofSeconds(30), () -> received.containsAll(ids.subList(1, ids.size())));
            first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            deleteTree(state.resolve(id).resolve("spool"));

            gateway(id, cloud, model);

            boolean answered = Await.until(Duration.ofSeconds(120), () -> results.keySet().containsAll(ids));
            assertThat(answered).as("results for %s of %s", results.keySet(), ids).isTrue();
        }
    }

    private Process gateway(String id, CloudSide cloud, Path model) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Brokers.Broker broker = TestBrokers.shared();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EdgeGatewayMain.class.getName(),
                "--device-id", id, "--broker", broker.host() + ":" + broker.port(),
                "--state-dir", state.resolve(id).toString(), "--topic-root", topics.root(),
                "--bootstrap-token", cloud.credentials.bootstrapToken(id), "--heartbeat-seconds", "1",
                "--model", "ocr-cls@1=" + model)
                .redirectErrorStream(true).redirectOutput(state.resolve(id + "-" + processes.size() + ".log").toFile())
                .start();
        processes.add(p);
        return p;
    }

    /** Straight to the broker, not through the dispatcher: it would re-send on its own and hide a lost task. */
    private void publish(CloudSide cloud, String deviceId, TaskMessage task) throws Exception {
        cloud.link.publish(topics.tasks(deviceId), Wire.encode(task), false).get(10, TimeUnit.SECONDS);
    }

    private TaskMessage task(String taskId, int images) {
        long[] shape = TestModels.CLS_SHAPE.clone();
        shape[0] = images;
        return new TaskMessage(taskId, "ocr-cls", Tensor.compact(shape, TestModels.image(taskId.hashCode(), images)), null,
                Instant.now().plusSeconds(300).toString(), null);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
