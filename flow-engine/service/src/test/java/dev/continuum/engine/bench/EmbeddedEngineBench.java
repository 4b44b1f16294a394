package dev.continuum.engine.bench;

import dev.continuum.bench.measure.DbCost;
import dev.continuum.bench.measure.FiveStepFlow;
import dev.continuum.bench.measure.Percentiles;
import dev.continuum.bench.measure.ProcessCpu;
import dev.continuum.engine.adapters.messaging.RunEventFeeds;
import dev.continuum.engine.app.EventLoop;
import dev.continuum.engine.app.FlowService;
import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.engine.events.RunEventsRecorder;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17 A measured like the peer (bench/scripts/engine-embedded-bench.sh; a benchmark: it prints numbers and asserts
 * only that every run SUCCEEDED). The peer is Operaton embedded: starter threads call startProcessInstanceByKey in
 * process and a run counts as done when its end transaction committed. Here the engine runs in process too, starter
 * threads call {@link RunService#start} (as POST /flows/{id}/run does with authentication off, without HTTP and JSON),
 * each start returning once its first turn is committed, and a run counts as done when its final change reaches the
 * run-event stream, which carries changes only after they are committed ({@link RunEventFeeds#changes()}, the engine's
 * own subscription, so no extra subscriber is paid for). The flow is the HTTP bench's (FiveStepFlow), its actions served
 * in process by the built-in echo and sleep providers.
 *
 * <p>Open loop by default: the starters start all runs as fast as their starts commit, as the peer's do. With
 * {@code embedded-bench.concurrency} > 0 at most that many runs are in flight (closed loop, as engine-bench.sh drives).
 */
@QuarkusTest
@TestProfile(EmbeddedEngineBench.AsInProduction.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class EmbeddedEngineBench {

    static final int RUNS = Integer.getInteger("embedded-bench.runs", 3000);
    static final int WARMUP = Integer.getInteger("embedded-bench.warmup", 1000);
    static final int STARTERS = Integer.getInteger("embedded-bench.starters", 4);
    static final int CONCURRENCY = Integer.getInteger("embedded-bench.concurrency", 0);
    /** PostgreSQL 15 backends publish their counters up to 10 s after they go idle (DbCost). */
    static final Duration SETTLE = Duration.ofMillis(Long.getLong("embedded-bench.stats-settle-ms", 11_000));

    /**
     * The engine as it runs in production: the test sources' beans that would change its costs are left out — a second
     * subscriber of the run-event stream (each message's dispatch is paid per subscriber) and the movable test clock.
     */
    public static class AsInProduction implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the peer's service tasks keep no record of their own: by default neither do the built-ins here
            // (-Dembedded-bench.builtin-action-store=database measures the engine's default)
            return Map.of("quarkus.arc.exclude-types", "dev.continuum.engine.events.RunEventsRecorder,"
                    + "dev.continuum.engine.support.TestClock,dev.continuum.engine.support.TimeSkipper",
                    "continuum.providers.builtin-action-store",
                    System.getProperty("embedded-bench.builtin-action-store", "memory"));
        }
    }

    @Inject
    FlowService flows;
    @Inject
    RunService runs;
    @Inject
    RunEventFeeds feeds;
    @Inject
    EventLoop loop;
    @Inject
    SelfUrl self;
    @Inject
    EngineConfig config;
    @ConfigProperty(name = "continuum.db.name")
    String database;

    /** One phase's runs: when each was started and when its final change was committed. */
    record Phase(String name, int size, Map<UUID, Integer> index, long[] started, long[] finished, String[] status,
                 CountDownLatch done, Semaphore inFlight) {

        static Phase of(String name, int size) {
            return new Phase(name, size, new ConcurrentHashMap<>(), new long[size], new long[size], new String[size],
                    new CountDownLatch(size), CONCURRENCY > 0 ? new Semaphore(CONCURRENCY) : null);
        }

        void changed(RunChanged change) {
            Integer i = index.get(change.runId());
            if (i != null && RunStatus.valueOf(change.status()).finished() && status[i] == null) {
                finished[i] = System.nanoTime();
                status[i] = change.status();
                if (inFlight != null) {
                    inFlight.release();
                }
                done.countDown();
            }
        }
    }

    private volatile Phase phase;

    @Test
    void measureCompletedRunsPerSecondLikeThePeer() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("embedded-bench.enabled"), "a benchmark: run with -Dembedded-bench.enabled=true");
        assertThat(Arc.container().instance(RunEventsRecorder.class).isAvailable()).as("the test's extra run-event subscriber is left out").isFalse();
        Viewer viewer = Viewer.unrestricted(config.localUser()); // authentication off: the local user, as the REST resource
        UUID flow = onLoop(() -> flows.create(new FlowService.FlowDraft(FiveStepFlow.definition(self.base(), BigDecimal.ZERO),
                "embedded bench five steps", null, null, null, null, null), viewer.id())).get(30, TimeUnit.SECONDS).id();
        Cancellable subscription = feeds.changes().subscribe().with(change -> {
            Phase current = phase;
            if (current != null) {
                current.changed(change);
            }
        });
        try {
            if (WARMUP > 0) {
                run(Phase.of("warm-up", WARMUP), flow, viewer);
            }
            System.gc();
            Optional<DbCost> db = DbCost.of(database, SETTLE);
            DbCost.Reading dbBefore = db.get().read();
            Duration cpuBefore = ProcessCpu.used(ProcessHandle.current().pid()).orElseThrow();
            Phase measured = Phase.of("measured", RUNS);
            long wallNanos = run(measured, flow, viewer);
            Duration cpu = ProcessCpu.used(ProcessHandle.current().pid()).orElseThrow().minus(cpuBefore);
            DbCost.Delta pg = db.get().read().since(dbBefore);
            report(measured, wallNanos, cpu, pg);
            List<String> notSucceeded = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                if (!"SUCCEEDED".equals(measured.status[i])) {
                    notSucceeded.add(i + ":" + measured.status[i]);
                }
            }
            assertThat(notSucceeded).as("runs that did not succeed").isEmpty();
        } finally {
            subscription.cancel();
        }
    }

    /** Starts every run of the phase from the starter threads and waits until each run's final change is committed. */
    long run(Phase current, UUID flow, Viewer viewer) throws Exception {
        phase = current;
        AtomicInteger next = new AtomicInteger();
        ExecutorService starters = Executors.newFixedThreadPool(STARTERS);
        long t0 = System.nanoTime();
        List<Future<?>> startersDone = new ArrayList<>();
        for (int t = 0; t < STARTERS; t++) {
            startersDone.add(starters.submit(() -> {
                for (int i; (i = next.getAndIncrement()) < current.size(); ) {
                    if (current.inFlight() != null) {
                        current.inFlight().acquireUninterruptibly();
                    }
                    start(current, i, flow, viewer).join();
                }
                return null;
            }));
        }
        for (Future<?> starter : startersDone) {
            starter.get();
        }
        long startedNanos = System.nanoTime() - t0;
        starters.shutdown();
        if (!current.done().await(15, TimeUnit.MINUTES)) {
            throw new AssertionError(current.done().getCount() + " runs of the " + current.name() + " phase did not finish");
        }
        long wall = System.nanoTime() - t0;
        System.out.printf("BENCH %s: %d runs started in %.2f s, all finished in %.2f s%n", current.name(), current.size(),
                startedNanos / 1e9, wall / 1e9);
        return wall;
    }

    /** One start as POST /flows/{id}/run makes it, on an event-loop context (the reactive client needs one). */
    CompletableFuture<Void> start(Phase current, int i, UUID flow, Viewer viewer) {
        UUID runId = UUID.randomUUID();
        current.index().put(runId, i); // before the start: its final change may arrive before the start call returns
        current.started()[i] = System.nanoTime();
        return onLoop(() -> runs.start(flow, null, runId, new RunService.StartRequest(FiveStepFlow.input(i), "embedded bench",
                null, null, null), viewer, RunService.Credentials.NONE)).thenApply(run -> null);
    }

    <T> CompletableFuture<T> onLoop(Supplier<Uni<T>> work) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        loop.execute(() -> work.get().subscribe().with(answer::complete, answer::completeExceptionally));
        return answer;
    }

    void report(Phase measured, long wallNanos, Duration cpu, DbCost.Delta pg) {
        List<Double> latency = new ArrayList<>(measured.size());
        for (int i = 0; i < measured.size(); i++) {
            latency.add((measured.finished()[i] - measured.started()[i]) / 1e6);
        }
        Percentiles p = Percentiles.of(latency);
        double seconds = wallNanos / 1e9;
        int n = measured.size();
        System.out.printf("BENCH embedded engine: %d runs, %s, %d warm-up runs, %d available processors%n", n,
                CONCURRENCY > 0 ? STARTERS + " starters, closed loop at concurrency " + CONCURRENCY : STARTERS + " starters, open loop",
                WARMUP, Runtime.getRuntime().availableProcessors());
        System.out.printf("BENCH completed runs/s        %.1f%n", n / seconds);
        System.out.printf("BENCH wall time               %.2f s%n", seconds);
        System.out.printf("BENCH run latency             p50 %.1f ms   p99 %.1f ms   max %.1f ms (start call to final commit)%n",
                p.p50(), p.p99(), p.max());
        System.out.printf("BENCH commits per run         %.2f (pg_stat_database xact_commit)%n", pg.commits() / (double) n);
        System.out.printf("BENCH rows written per run    %.2f (n_tup_ins + n_tup_upd + n_tup_del)%n", pg.rowsWritten() / (double) n);
        System.out.printf("BENCH engine JVM CPU          %.2f ms per run (whole JVM, the starters included, as the peer's jvm_cpu_s)%n",
                cpu.toNanos() / 1e6 / n);
        System.out.printf("BENCH PostgreSQL CPU          %.2f ms per run (backends of the bench database)%n",
                pg.backendCpu().toNanos() / 1e6 / n);
    }
}
