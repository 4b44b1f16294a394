package dev.continuum.bench.engine;

import dev.continuum.bench.measure.FiveStepFlow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps at most {@code concurrency} runs in flight until {@code runs} have finished (a closed loop,
 * so latency is the engine's and not a queue's). Completion is noticed by one cheap list call per
 * poll interval (ACTIVE runs with the phase's label) rather than by polling every run.
 */
public final class LoadDriver {

    /** The runs one phase started, and how long the phase took on the driver's clock. */
    public record Phase(List<String> runIds, Duration wallTime) {}

    private final LoadDriverClient engine;
    private final Duration pollInterval;
    private final Duration timeout;
    private final Duration giveUpAfter;

    /**
     * @param giveUpAfter a run still ACTIVE this long after it started no longer holds a slot; it shows up as
     *                    ACTIVE in the report (a stuck run is a finding, and must not stall the measurement)
     */
    public LoadDriver(LoadDriverClient engine, Duration pollInterval, Duration timeout, Duration giveUpAfter) {
        this.engine = engine;
        this.pollInterval = pollInterval;
        this.timeout = timeout;
        this.giveUpAfter = giveUpAfter;
    }

    public Phase drive(String flowId, int runs, int concurrency, String label) throws InterruptedException {
        Semaphore slots = new Semaphore(concurrency);
        Map<String, Long> inFlight = new ConcurrentHashMap<>(); // run id → when its start was acknowledged
        List<String> started = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger finished = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        long began = System.nanoTime();
        long deadline = began + timeout.toNanos();
        try (ExecutorService starters = Executors.newVirtualThreadPerTaskExecutor()) {
            Thread feeder = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < runs && failure.get() == null; i++) {
                    int number = i;
                    try {
                        slots.acquire();
                    } catch (InterruptedException e) {
                        return;
                    }
                    starters.submit(() -> {
                        try {
                            LoadDriverClient.Started run = engine.startRun(flowId, FiveStepFlow.input(number), label);
                            String id = run.runId();
                            started.add(id);
                            if (run.active()) {
                                inFlight.put(id, System.nanoTime());
                            } else {
                                finished.incrementAndGet();
                                slots.release();
                            }
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                            slots.release();
                        }
                    });
                }
            });
            while (finished.get() < runs) {
                if (failure.get() != null) {
                    throw failure.get();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("only " + finished.get() + " of " + runs + " runs finished within "
                            + timeout + "; still active: " + inFlight.keySet().stream().limit(5).toList());
                }
                Thread.sleep(pollInterval);
                long asked = System.nanoTime();
                Set<String> active = engine.activeRunIds(label);
                // A run acknowledged after the list was asked for may be missing from it while still active.
                inFlight.forEach((id, acknowledged) -> {
                    boolean done = acknowledged < asked && !active.contains(id);
                    boolean givenUp = asked - acknowledged > giveUpAfter.toNanos();
                    if ((done || givenUp) && inFlight.remove(id) != null) {
                        finished.incrementAndGet();
                        slots.release();
                    }
                });
            }
            feeder.join();
        }
        return new Phase(List.copyOf(started), Duration.ofNanos(System.nanoTime() - began));
    }

    /** Reads every run's times and log size back from the engine (after the clock has stopped). */
    public List<RunTiming> timings(List<String> runIds, int parallelism) throws InterruptedException {
        List<RunTiming> timings = new ArrayList<>();
        try (ExecutorService readers = Executors.newFixedThreadPool(parallelism, Thread.ofVirtual().factory())) {
            List<Future<RunTiming>> reads = runIds.stream().map(id -> readers.submit(() -> engine.timing(id))).toList();
            for (Future<RunTiming> read : reads) {
                try {
                    timings.add(read.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("cannot read a run back: " + e.getCause().getMessage(), e.getCause());
                }
            }
        }
        return timings;
    }
}
