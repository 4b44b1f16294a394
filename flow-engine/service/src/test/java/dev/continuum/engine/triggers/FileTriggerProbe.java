package dev.continuum.engine.triggers;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark (docs/benchmarks.md; run by name: mvn -pl flow-engine/service -am verify -Dtest=FileTriggerProbe): N file events from one gateway within a minute,
 * as the gateway publishes them, into a file trigger of a one-state flow. Prints runs started, lost, duplicate runs,
 * p50/p99 from the event's detection on the gateway to the run's row committed, and the engine's heap after GC.
 * Not a test.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestProfile(FileTriggerTest.EdgeBroker.class)
class FileTriggerProbe {

    @Inject
    Pool pool;

    @Test
    void tenThousandFileEvents() throws Exception {
        int files = Integer.getInteger("bench.files", 10_000);
        long spreadMs = Long.getLong("bench.spread-ms", 60_000);
        // every Nth event is published twice, as the gateway's outbox re-publishes one whose PUBACK timed out
        int republishEvery = Integer.getInteger("bench.republish-every", 10);
        String gateway = "gw-bench-" + UUID.randomUUID().toString().substring(0, 6);
        String triggerId = Triggers.create("""
                {"title":"bench","flow_id":"%s","source":{"type":"file","gateway":"%s","path":"incoming/"},
                 "input_template":{"path.$":"$.path"}}""".formatted(Flows.publish(Triggers.KEEP_INPUT), gateway));
        MqttLink link = MqttLink.standalone(MqttLink.Options.persistent(FileTriggerTest.EdgeBroker.BROKER.host(),
                FileTriggerTest.EdgeBroker.BROKER.port(), gateway).withCleanSession(true));
        link.start().get(10, TimeUnit.SECONDS);
        long heapStart = heapAfterGc();
        long heapMid = 0;
        long start = System.currentTimeMillis();
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            long wait = start + spreadMs * i / files - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            FileEvent event = FileEvent.of(gateway, triggerId, List.of(new FileEvent.WatchedFile(
                    "incoming/f-" + i + ".dat", 4096, start + i, Integer.toHexString(i))), System.currentTimeMillis());
            sent.add(link.publish(FileTriggerTest.EdgeBroker.TOPICS.files(gateway), Wire.encode(event), false));
            if (republishEvery > 0 && i % republishEvery == 0) {
                sent.add(link.publish(FileTriggerTest.EdgeBroker.TOPICS.files(gateway), Wire.encode(event), false));
            }
            if (i == files / 2) {
                heapMid = heapAfterGc();
            }
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        long until = System.currentTimeMillis() + Duration.ofMinutes(5).toMillis();
        long runs = 0;
        while (System.currentTimeMillis() < until && (runs = count("SELECT count(*) FROM runs WHERE tags ? $1", triggerId)) < files) {
            Thread.sleep(500);
        }
        long events = count("SELECT count(*) FROM trigger_events WHERE trigger_id = $1::uuid AND outcome = 'started'", triggerId);
        long republished = republishEvery > 0 ? (files + republishEvery - 1) / republishEvery : 0;
        until = System.currentTimeMillis() + Duration.ofMinutes(2).toMillis();
        long duplicates = 0;
        while (System.currentTimeMillis() < until && (duplicates = count(
                "SELECT count(*) FROM trigger_events WHERE trigger_id = $1::uuid AND outcome = 'duplicate'", triggerId)) < republished) {
            Thread.sleep(500);
        }
        // the run row's commit time against the gateway's detection time carried in the event
        List<Long> latencies = new ArrayList<>();
        for (Row r : pool.preparedQuery("SELECT (extract(epoch from r.created_at) * 1000)::bigint - "
                        + "(extract(epoch from (e.payload->>'detected_at')::timestamptz) * 1000)::bigint AS ms "
                        + "FROM trigger_events e JOIN runs r ON r.id = e.run_id WHERE e.trigger_id = $1::uuid AND e.outcome = 'started'")
                .execute(Tuple.of(triggerId)).await().indefinitely()) {
            latencies.add(r.getLong("ms"));
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("[file-trigger] %d events over %.0f s; runs %d, started events %d, lost %d, duplicate runs %d%n",
                files, spreadMs / 1000.0, runs, events, files - events, runs - events);
        System.out.printf("[file-trigger] %d events published twice (outbox re-publish): %d recorded as duplicate, %d runs%n",
                republished, duplicates, runs);
        System.out.printf("[file-trigger] event -> committed run: p50 %d ms, p99 %d ms, max %d ms%n",
                pct(sorted, 50), pct(sorted, 99), sorted.length == 0 ? -1 : sorted[sorted.length - 1]);
        System.out.printf("[file-trigger] engine heap after GC: start %d MB, middle %d MB, end %d MB%n",
                heapStart, heapMid, heapAfterGc());
        link.close();
    }

    private long count(String sql, String triggerId) {
        return pool.preparedQuery(sql).execute(Tuple.of(sql.contains("tags") ? "trigger:" + triggerId : triggerId))
                .await().indefinitely().iterator().next().getLong(0);
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }
}
