package dev.continuum.edge.gateway.bench;

import dev.continuum.edge.gateway.app.EdgeGatewayMain;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.broker.testing.TestBrokers;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (bench/scripts/file-drop.sh, docs/benchmarks.md): N files dropped into a gateway process's watched directory
 * within a minute — each written as {@code name.part} and renamed, as instruments do — and read off the broker as
 * the cloud reads them. Prints delivered, lost, duplicates, p50/p99 from the rename to the event's arrival, and the
 * gateway's heap after a GC at the start, the middle and the end. Not a test: run by name.
 */
class FileDropProbe {

    @Test
    void dropFiles() throws Exception {
        int files = Integer.getInteger("bench.files", 10_000);
        long spreadMs = Long.getLong("bench.spread-ms", 60_000);
        int stable = Integer.getInteger("bench.stable-seconds", 1);
        Brokers.Broker broker = TestBrokers.shared();
        Topics topics = TestBrokers.freshTopics();
        String id = TestBrokers.freshId("gw-bench");
        Path work = Files.createTempDirectory("file-drop");
        Path data = Files.createDirectories(work.resolve("data"));
        Path incoming = Files.createDirectories(data.resolve("incoming"));
        Map<String, Long> droppedAt = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        Vertx vertx = Vertx.vertx();
        MqttLink cloud = new MqttLink(vertx, MqttLink.Options.persistent(broker.host(), broker.port(),
                TestBrokers.freshId("bench-cloud")).withCleanSession(true));
        cloud.subscribe(topics.files(id), 1, m -> {
            long now = System.currentTimeMillis();
            m.ack();
            for (FileEvent.WatchedFile f : Wire.decode(m.payload(), FileEvent.class).files()) {
                if (seen.computeIfAbsent(f.path(), p -> new AtomicInteger()).incrementAndGet() == 1) {
                    Long at = droppedAt.get(f.path());
                    if (at != null) {
                        latencies.add(now - at);
                    }
                }
            }
        });
        cloud.start().get(10, TimeUnit.SECONDS);
        cloud.publish(topics.watches(id), Wire.encode(new FileWatch.Watches(List.of(new FileWatch("bench", "incoming",
                "*.dat", List.of("*.part"), stable, null, 0, 0)))), true).get(10, TimeUnit.SECONDS);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process gateway = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                EdgeGatewayMain.class.getName(), "--device-id", id, "--broker", broker.host() + ":" + broker.port(),
                "--state-dir", work.resolve("state").toString(), "--data-dir", data.toString(),
                "--topic-root", topics.root(), "--bootstrap-token", "unused-on-an-open-broker")
                .redirectErrorStream(true).redirectOutput(work.resolve("gateway.log").toFile()).start();
        try {
            Thread.sleep(3000); // connected and watching
            String heapStart = heap(gateway.pid());
            String heapMid = null;
            long start = System.currentTimeMillis();
            byte[] body = new byte[4096];
            for (int i = 0; i < files; i++) {
                long due = start + spreadMs * i / files;
                long wait = due - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                String name = "f-" + i + ".dat";
                Arrays.fill(body, (byte) i);
                Path part = incoming.resolve(name + ".part");
                Files.write(part, body);
                Files.move(part, incoming.resolve(name), StandardCopyOption.ATOMIC_MOVE);
                droppedAt.put("incoming/" + name, System.currentTimeMillis());
                if (i == files / 2) {
                    heapMid = heap(gateway.pid());
                }
            }
            long written = System.currentTimeMillis() - start;
            long until = System.currentTimeMillis() + 120_000;
            while (seen.size() < files && System.currentTimeMillis() < until) {
                Thread.sleep(200);
            }
            Thread.sleep(2000); // late duplicates would show now
            String heapEnd = heap(gateway.pid());
            long duplicates = seen.values().stream().mapToInt(AtomicInteger::get).filter(n -> n > 1).count();
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf("[file-drop] %d files written in %.1f s (stable_seconds=%d); delivered %d, lost %d, "
                            + "files delivered more than once %d%n", files, written / 1000.0, stable, seen.size(),
                    files - seen.size(), duplicates);
            System.out.printf("[file-drop] rename -> event at the cloud: p50 %d ms, p99 %d ms, max %d ms%n",
                    pct(sorted, 50), pct(sorted, 99), sorted.length == 0 ? -1 : sorted[sorted.length - 1]);
            System.out.printf("[file-drop] gateway heap used after GC: start %s, middle %s, end %s%n", heapStart, heapMid, heapEnd);
            ProcessHandle.of(gateway.pid()).flatMap(h -> h.info().totalCpuDuration()).ifPresent(cpu ->
                    System.out.printf("[file-drop] gateway CPU time %.1f s%n", cpu.toMillis() / 1000.0));
        } finally {
            gateway.destroy();
            gateway.waitFor(10, TimeUnit.SECONDS);
            cloud.close();
            vertx.close();
        }
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    /** Used heap after a full GC, from jcmd of the running JDK. */
    private static String heap(long pid) {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run").redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
            Process info = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
            String out = new String(info.getInputStream().readAllBytes());
            info.waitFor(30, TimeUnit.SECONDS);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(out);
            return m.find() ? (Long.parseLong(m.group(1)) / 1024) + " MB" : "?";
        } catch (Exception e) {
            return "?";
        }
    }
}
